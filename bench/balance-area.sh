#!/usr/bin/env bash
# balance-area.sh: estimated LUTs of the designs of BENCHMARKS.md "LUTs
# from dais-balance (issue 29)", two otir builds side by side:
#
#   bench/balance-area.sh OLDBIN NEWBIN      (each a directory holding
#                                             otir-opt, otir-run, otir-translate)
#   YOSYS=1 bench/balance-area.sh OLDBIN NEWBIN   also yosys LUTs of the
#                                             16x16 CMVMs (seconds each)
#
# e.g. OLDBIN built from main, NEWBIN from the branch:
#   git worktree add /tmp/main-wt main && (cd /tmp/main-wt && go build -o /tmp/old/ ./cmd/...)
#   go build -o /tmp/new/ ./cmd/... && bench/balance-area.sh /tmp/old /tmp/new
#
# Designs: alkaid-mlp through nn-to-circuit (README's command), the jet's
# logits through nn-to-circuit with bench/alkaid/jet.sh's options (the
# network and options made here, without alkaid's trace), the 16x16 and
# 32x32 i8 matmuls of bench/gen-lowering.sh, and alkaid's 16x16 int8 CMVM
# (tests/lower/Inputs/cmvm16-int8.otir, gen_cmvm64.py seed 0) as
# bench/cmvm-area.sh lowers it (default options, then cmvm-objective=luts,
# then both at max-adder-depth=-1). Prints, per design and build: the
# program's checksum (equal: the same program), adders, adder depth and
# otir-run info's area line (the yosys LUTs when YOSYS=1).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
old=$1 new=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$here"
C=../shared/conformance/alir/alkaid-mlp
J=tests/nn/Inputs/jet
"$old/otir-translate" --import-onnx $J/model.onnx --graph-name jet -o "$work/jet-full.mlir" --params-out "$work/jet.npz"
sed '/nn.softmax/d; s/nn.return %7 : tensor<1x5xf64>/nn.return %6 : tensor<1x5xf64>/' "$work/jet-full.mlir" >"$work/jet.mlir"
jetq="calibration=$J/calib.npy act-bits=10 input-bits=10"
bench/gen-lowering.sh "$work" >/dev/null
measure() { # measure NAME BIN PROGRAM
  local info
  info=$("$2/otir-run" info "$3")
  printf '%s\t%s\tcksum %s\t%s adders\tdepth %s\t%s' "$1" "$(basename "$2")" "$(cksum <"$3" | cut -d' ' -f1)" \
    "$(sed -n 's/^counts: *\([0-9]*\) adders.*/\1/p' <<<"$info")" \
    "$(sed -n 's/^adder depth: *\([0-9]*\).*/\1/p' <<<"$info")" \
    "$(sed -n 's/^area: *\([^(]*\).*/\1/p' <<<"$info")"
  if [ -n "${YOSYS:-}" ] && [[ $1 == cmvm16* ]]; then
    "$2/otir-run" convert "$3" "$work/d.v" --name d >/dev/null
    (cd "$work" && "$here/scripts/rtl-area.sh" d d.v) | sed -n 's/^d: \(LUTs [0-9]*, carry [0-9]*\).*/\tyosys \1/p' | tr -d '\n'
  fi
  echo
}
for bin in "$old" "$new"; do
  "$bin/otir-opt" $C/graph.mlir --params $C/params.npz --quant $C/quant.json \
    --pass-pipeline='builtin.module(nn-to-circuit)' --emit=alir-v4-json -o "$work/p.json"
  measure alkaid-mlp "$bin" "$work/p.json"
  "$bin/otir-opt" "$work/jet.mlir" --params "$work/jet.npz" \
    --pass-pipeline="builtin.module(nn-to-circuit{$jetq})" --emit=alir-v4-json -o "$work/p.json"
  measure jet "$bin" "$work/p.json"
  for n in 16 32; do
    "$bin/otir-opt" "$work/mm$n.otir" --pass-pipeline='builtin.module(promote-types,lower-tiles,dais-optimize)' \
      --emit=alir-json -o "$work/p.json"
    measure "mm$n" "$bin" "$work/p.json"
  done
  for opt in "" "cmvm-objective=luts" "max-adder-depth=-1" "max-adder-depth=-1 cmvm-objective=luts"; do
    "$bin/otir-opt" tests/lower/Inputs/cmvm16-int8.otir \
      --pass-pipeline="builtin.module(promote-types,lower-tiles{$opt},dais-optimize)" --emit=alir-v4-json -o "$work/p.json"
    measure "cmvm16${opt:+-${opt// /,}}" "$bin" "$work/p.json"
  done
done
