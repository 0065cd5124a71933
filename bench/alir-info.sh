#!/bin/bash
# otir-run info on a 250,000-op ALIR program (issue 31's row "ALIR JSON
# program of 250k ops, otir-run info"; BENCHMARKS.md "Reading ALIR JSON,
# streamed"): CPU seconds (user+sys) and peak RSS of three runs of each
# binary, alternating, on the program as .json, .json.gz and bytecode, with
# the load average before and after.
#
#   bench/alir-info.sh [OTIR-RUN ...]     (default: otir-run built from this tree)
set -euo pipefail
cd "$(dirname "$0")/.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
go build -o "$T/" ./cmd/otir-gen ./cmd/otir-run
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=("$T/otir-run")
"$T/otir-gen" shift-add -n 250000 --inputs 1000 --outputs 1000 --seed 1 > "$T/sa250k.json"
gzip -k "$T/sa250k.json"
"$T/otir-run" convert "$T/sa250k.json" "$T/sa250k.bin" >/dev/null
echo "load: $(cat /proc/loadavg)"
for f in sa250k.json sa250k.json.gz sa250k.bin; do
  for i in 1 2 3; do
    for b in "${bins[@]}"; do
      /usr/bin/time -f "$f	$b	%U+%S s CPU	%M KB" "$b" info "$T/$f" 2>&1 >/dev/null | tail -1
    done
  done
done
echo "load: $(cat /proc/loadavg)"
