#!/usr/bin/env bash
# cmvm-area.sh: LUTs of alkaid's NxN int8 CMVM (gen_cmvm64.py, seed 0)
# against otir's own circuit of the same matrix (BENCHMARKS.md, "Area
# against alkaid: CMVM (issue 29)").
#
#   bench/cmvm-area.sh [N ...]        (default: 8 16 32)
#
# Needs alkaid-py (ALKAID_PY, default /work/ref/bin/alkaid-py) and its
# tools/gen_cmvm64.py (GEN), yosys, and otir-opt/otir-run on PATH. For each
# N prints: circuit, adders, adder depth, LUTs and carry cells by
# scripts/rtl-area.sh (yosys 0.23 synth_xilinx -flatten). otir's circuit is
# the kernel x(1xN i8) @ W lowered by lower-tiles (default options, then
# max-adder-depth=-1: the minimal adder tree; each also with
# cmvm-objective=luts) and dais-optimize.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
alkaid=${ALKAID_PY:-/work/ref/bin/alkaid-py}
gen=${GEN:-/work/ref/tools/gen_cmvm64.py}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

kernel() { /usr/bin/python3 "$here/bench/cmvm_kernel.py" "$1"; }  # W.txt: y = x @ W as OTIR, x int8

measure() { # measure NAME PROGRAM.json
  local adders depth area
  adders=$(otir-run info "$2" | sed -n 's/^counts: *\([0-9]*\) adders.*/\1/p')
  depth=$(otir-run info "$2" | sed -n 's/^adder depth: *\([0-9]*\).*/\1/p')
  otir-run convert "$2" "$1.v" >/dev/null
  top=$(sed -n 's/^module \([A-Za-z0-9_]*\).*/\1/p' "$1.v" | head -1)
  area=$("$here/scripts/rtl-area.sh" "$top" "$1.v" | sed 's/^[^:]*: //; s/ (Yosys.*//')
  printf '%s\t%s adders\tdepth %s\t%s\n' "$1" "$adders" "$depth" "$area"
}

for n in "${@:-8 16 32}"; do
  for n1 in $n; do
    "$alkaid" "$gen" 0 "$n1" . >/dev/null
    gunzip -kf "cmvm${n1}_int8.json.gz"
    measure "alkaid-${n1}x${n1}" "cmvm${n1}_int8.json"
    kernel "W${n1}_int8_seed0.txt" >"c$n1.otir"
    for opt in "" "max-adder-depth=-1" "max-adder-depth=-1 cmvm-objective=luts" "cmvm-objective=luts"; do
      otir-opt "c$n1.otir" --pass-pipeline="builtin.module(promote-types,lower-tiles{$opt},dais-optimize)" \
        --emit=alir-v4-json -o "o$n1.json"
      measure "otir-${n1}x${n1}${opt:+-${opt// /,}}" "o$n1.json"
    done
  done
done
