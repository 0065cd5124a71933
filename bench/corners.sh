#!/usr/bin/env bash
# Parser corners (issue 15): one line of 1.33M operations, 100,000 empty
# kernels. Builds the inputs and times cold otir-opt runs (parse, verify,
# print), alternating the binaries given, and mlir-opt on the equivalent MLIR
# when it is installed. BENCHMARKS.md has the figures.
#
#   bench/corners.sh [rounds] [otir-opt binary]...
#   bench/corners.sh 5 /tmp/otir-opt-old /tmp/otir-opt-new
#
# Inputs go to $OUT (default /tmp/corners). Each line printed is
# "binary input milliseconds peak-RSS-KB"; the medians follow.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
shift || true
bins=("$@")
OUT=${OUT:-/tmp/corners}
mkdir -p "$OUT"
if [ ${#bins[@]} -eq 0 ]; then
  go build -o "$OUT/otir-opt" ./cmd/otir-opt
  bins=("$OUT/otir-opt")
fi
go run ./cmd/otir-gen chain -n 1330000 -one-line > "$OUT/oneline.otir"
go run ./cmd/otir-gen kernels -n 100000 > "$OUT/kernels100k.otir"
# The same shapes in MLIR: an arith chain on one line, empty functions.
python3 - "$OUT" <<'PY'
import sys
out = sys.argv[1]
n, ops = 1330000, ["addi", "subi", "muli", "xori"]
with open(f"{out}/oneline.mlir", "w") as f:
    f.write("func.func @chain(%a: i32, %b: i32) -> i32 {\n  %v0 = arith.addi %a, %b : i32")
    for i in range(1, n):
        f.write(f" %v{i} = arith.{ops[i % 4]} %v{i-1}, %a : i32")
    f.write(f" return %v{n-1} : i32\n}}\n")
with open(f"{out}/kernels100k.mlir", "w") as f:
    for i in range(100000):
        f.write(f"func.func @k{i}() {{ return }}\n")
PY
mlir=$(ls /usr/lib/llvm-*/bin/mlir-opt 2>/dev/null | sort -V | tail -1 || true)
runs=()
for b in "${bins[@]}"; do
  runs+=("$b oneline.otir" "$b kernels100k.otir")
done
if [ -n "$mlir" ]; then
  runs+=("$mlir oneline.mlir" "$mlir kernels100k.mlir")
fi
log="$OUT/times.txt"
: > "$log"
for i in $(seq "$rounds"); do
  for r in "${runs[@]}"; do
    set -- $r
    s=$(date +%s%N)
    kb=$( { /usr/bin/time -f %M "$1" "$OUT/$2" -o /dev/null 2>&1 >/dev/null; } | tail -1)
    echo "$1 $2 $(( ($(date +%s%N) - s) / 1000000 )) $kb" | tee -a "$log"
  done
done
echo "--- medians (ms, range, peak RSS KB)"
sort -k1,2 -k3n "$log" | awk '
  { k = $1 " " $2; v[k, ++n[k]] = $3; m[k] = $4 > m[k] ? $4 : m[k] }
  END { for (k in n) { c = n[k]; printf "%s %d (%d-%d) %d\n", k, v[k, int((c + 1) / 2)], v[k, 1], v[k, c], m[k] } }' | sort
