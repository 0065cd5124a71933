#!/bin/sh
# Executor speed (issue 31, item 4): an empty scf.for
# (tests/exec/error-step-limit.otir) and a loop of scalar arithmetic
# (bench/executor-scalar.otir), each run to otir-run's default step limit
# (1.5e7 steps), and a loop of tile ops on 64x64 tiles
# (bench/executor-tiles.otir) run to 1.5e8 steps (about as many elements),
# timed in CPU seconds (user+sys) with the machine's load average.
# Usage: bench/executor.sh [otir-run binary]
set -e
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then
	bin=$(mktemp -d)/otir-run
	go build -o "$bin" ./cmd/otir-run
fi
echo "load: $(cat /proc/loadavg)"
for f in tests/exec/error-step-limit.otir bench/executor-scalar.otir "bench/executor-tiles.otir --max-steps 150000000"; do
	echo "$f"
	for i in 1 2 3; do
		# shellcheck disable=SC2086 # $f holds the file and its flags
		/usr/bin/time -f "user %U s, sys %S s, max RSS %M KB" \
			"$bin" $f 2>&1 >/dev/null | grep "^user" || true
	done
done
echo "load: $(cat /proc/loadavg)"
