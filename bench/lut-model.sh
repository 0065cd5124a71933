#!/bin/bash
# Calibration of backend/rtl's LUT estimate (Design.Estimate, docs/rtl.md
# "Cost model") against yosys 0.23 synth_xilinx -flatten (scripts/rtl-area.sh).
#
#   bench/lut-model.sh         makes the calibration programs in
#                              backend/rtl/testdata/area/, synthesizes each
#                              design and writes calibration.tsv there
#   ONLY="a b" bench/lut-model.sh   synthesizes only the designs named (their
#                              rows replaced), after making all programs
#
# Each row: name, the latency cutoff its design is built with (0:
# combinational), yosys's LUTs, CARRY4 cells and flip-flops. The programs
# are small (they are committed: TestEstimateCalibration rebuilds each
# design and compares its estimate with the row). CMVMs come from
# ../shared/reference-tools (alkaid-py gen_cmvm64.py) and from otir's own
# solver; the rest from the repository's examples and test graphs. Takes
# about 10 CPU minutes (yosys).
set -euo pipefail
cd "$(dirname "$0")/.."
D=backend/rtl/testdata/area
. bench/area-common.sh
for nw in "0 8" "0 16" "1 24"; do
  set -- $nw
  "$REF/bin/alkaid-py" "$REF/tools/gen_cmvm64.py" "$1" "$2" "$T" >/dev/null
  cp "$T/cmvm$2_int8.json" "$T/p.json" && prog "alkaid-cmvm$2"
  cmvm_kernel "$T/W$2_int8_seed$1.txt" > "$T/k.otir"
  for o in "max-adder-depth=0:free" "max-adder-depth=-1:min" "max-adder-depth=-1 adder-depth-slack=3:slack3"; do
    opt "$T/k.otir" --pass-pipeline="builtin.module(promote-types,lower-tiles{${o%%:*}},dais-optimize)" --emit=alir-v4-json -o "$T/p.json"
    prog "otir-cmvm$2-${o##*:}"
  done
done
for e in mlp vadd; do
  opt examples/$e.otir --pass-pipeline='builtin.module(promote-types,lower-tiles,dais-optimize)' --emit=alir-v4-json -o "$T/p.json"
  prog "example-$e"
done
Q=tests/nn/Inputs/quantized
for g in functions requantize pool relu linear mul conv2d reduce misc add; do
  P=""; [ -f $Q/$g.params.npz ] && P="--params $Q/$g.params.npz"
  opt $Q/$g.mlir $P --pass-pipeline='builtin.module(nn-to-circuit)' --emit=alir-v4-json -o "$T/p.json"
  prog "nn-$g"
done
# Two float networks through calibration: the BatchNorm MLP and the jet
# tagger's logits (as bench/pareto.sh), and alkaid's circuit of the latter.
"$T/otir-translate" --import-onnx tests/nn/Inputs/onnx-float/bn_mlp.onnx -o "$T/bn.mlir" --params-out "$T/bn.npz"
opt "$T/bn.mlir" --params "$T/bn.npz" --pass-pipeline="builtin.module(nn-to-circuit{calibration=tests/nn/Inputs/onnx-float/bn_mlp.calib.npy})" --emit=alir-v4-json -o "$T/p.json"
prog nn-bn-mlp
REF="$REF/bin" bench/alkaid/jet.sh "$T" "$T/jet"
for o in "max-adder-depth=-1:min" "adder-depth-slack=2:slack2"; do
  opt "$T/jet/jet.mlir" --params "$T/jet/jet.npz" --pass-pipeline="builtin.module(nn-to-circuit{$(cat "$T/jet/options") ${o%%:*}})" --emit=alir-v4-json -o "$T/p.json"
  prog "nn-jet-${o##*:}"
done
zcat "$T/jet/alkaid/alkaid.json.gz" > "$T/p.json" && prog alkaid-jet
opt tests/lower/Inputs/lookup.otir --pass-pipeline='builtin.module(promote-types,lower-tiles,dais-optimize)' --emit=alir-v4-json -o "$T/p.json"
prog lookup
# Designs: every program combinational, and three pipelined (flip-flops).
rows=()
for f in "$D"/*.json.gz; do rows+=("$(basename "$f" .json.gz) 0"); done
rows+=("otir-cmvm16-min 2" "otir-cmvm16-free 3" "example-mlp 4")
TSV=$D/calibration.tsv
if [ -z "${ONLY:-}" ]; then printf 'name\tcutoff\tluts\tcarry\tffs\n' > "$TSV"; fi
for r in "${rows[@]}"; do
  set -- $r
  if [ -n "${ONLY:-}" ]; then
    case " $ONLY " in *" $1 "*) ;; *) continue ;; esac
    awk -v n="$1" -v c="$2" -F'\t' '!($1 == n && $2 == c)' "$TSV" > "$T/tsv" && cp "$T/tsv" "$TSV"
  fi
  synth_row "$1" "$2" | tee -a "$TSV"
done
