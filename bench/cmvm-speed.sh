#!/bin/sh
# CMVM solve speed (issue 31): bench/cmvm's seed-0 int8 matrices 128x128 and
# 256x256 solved by lower/cmvm alone with lower-tiles' options
# (bench/cmvm/cmvm-solve), three runs each, timed in CPU seconds (user+sys)
# and peak RSS, with the machine's load average.
#
#   bench/cmvm-speed.sh            this tree
#   bench/cmvm-speed.sh REV        REV (a git revision) and this tree side by
#                                  side, runs alternating
#   CHECK=1 bench/cmvm-speed.sh REV  also compare the hashes of every graph of
#                                  cmvm-solve's check set (Table 2 sets,
#                                  int8 64..256, 256x64, 64x256, 1024x64):
#                                  the two solvers must build the same graphs
set -e
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/new" ./bench/cmvm/cmvm-solve
bins=new
if [ -n "${1:-}" ]; then
	mkdir "$tmp/old"
	git archive "$1" | tar -x -C "$tmp/old"
	# The revision may predate cmvm-solve: build it with this tree's.
	mkdir -p "$tmp/old/bench/cmvm/cmvm-solve"
	cp bench/cmvm/cmvm-solve/main.go "$tmp/old/bench/cmvm/cmvm-solve/"
	(cd "$tmp/old" && go build -o "$tmp/old.bin" ./bench/cmvm/cmvm-solve)
	bins="old new"
	echo "old: $1 ($(git rev-parse --short "$1")), new: this tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- lower bench || echo ', modified'))"
fi
cp "$tmp/new" "$tmp/new.bin"
echo "load: $(cat /proc/loadavg)"
for size in 128x128 256x256; do
	for i in 1 2 3; do
		for b in $bins; do
			/usr/bin/time -f "%U %S %M" -o "$tmp/time" "$tmp/$b.bin" "$size" >"$tmp/out"
			read -r user sys rss <"$tmp/time"
			awk -v b="$b" -v u="$user" -v s="$sys" -v m="$rss" -v o="$(cut -d: -f2 "$tmp/out" | cut -d" " -f2-7)" -v z="$size" \
				'BEGIN { printf "%-8s %s run: %5.2f CPU-s (user %s + sys %s), peak RSS %d MB, %s\n", b, z, u + s, u, s, m / 1024, o }'
		done
	done
	echo "load: $(cat /proc/loadavg)"
done
if [ -n "${CHECK:-}" ] && [ -n "${1:-}" ]; then
	"$tmp/old.bin" -hashes >"$tmp/hashes-old"
	"$tmp/new" -hashes >"$tmp/hashes-new"
	if cmp -s "$tmp/hashes-old" "$tmp/hashes-new"; then
		echo "check: $(wc -l <"$tmp/hashes-new") graphs identical"
	else
		diff "$tmp/hashes-old" "$tmp/hashes-new"
		exit 1
	fi
fi
