#!/bin/bash
# Held-out designs for backend/rtl's LUT estimate (docs/rtl.md "Cost
# model"): yosys 0.23 synth_xilinx -flatten figures (scripts/rtl-area.sh)
# of designs of other kinds and sizes than bench/lut-model.sh's fitting
# set, so the estimate's error can be stated on designs it was not fitted
# to: a 32x32 CMVM (alkaid's program and otir's circuit of the same
# matrix), rectangular CMVMs of 4-bit weights on 16-bit inputs, networks
# through nn-to-circuit (the QONNX MLP with and without its softmax
# lookups, the QONNX CNN, the BatchNorm MLP), lookups and muxes
# (abs-after-cmvm, reduce8), the DAIS v1 conformance program (multipliers),
# and pipelined designs (flip-flops), and alkaid's MLP (alkaid-mlp, about
# 49,000 LUTs; yosys takes about 10 minutes on it). The DAIS v1 program's
# multipliers become 40 DSP48E1 cells, which rtl-area.sh does not count.
#
#   bench/lut-heldout.sh      makes the programs in
#                             backend/rtl/testdata/area-heldout/, synthesizes
#                             each design (small ones first) and writes
#                             calibration.tsv there (one row per design as
#                             yosys finishes it)
#
# calibration.tsv has bench/lut-model.sh's columns: name, the latency
# cutoff the design is built with (0: combinational), yosys's LUTs, CARRY4
# cells and flip-flops; how each program is made is the script below.
# Needs /work/ref (alkaid-py, gen_cmvm64.py: ../shared/reference-tools)
# and /usr/bin/python3 with numpy. Takes about 30 CPU minutes (yosys).
set -euo pipefail
cd "$(dirname "$0")/.."
D=backend/rtl/testdata/area-heldout
. bench/area-common.sh
lower() { # OTIR kernel file, options of lower-tiles
  opt "$1" --pass-pipeline="builtin.module(promote-types,lower-tiles{$2},dais-optimize)" --emit=alir-v4-json -o "$T/p.json"
}
# Rectangular CMVMs: 4-bit weights (-8..7, seeded) on 16-bit inputs.
for nm in "8 32 1" "32 8 2"; do
  set -- $nm
  /usr/bin/python3 -c "
import numpy as np
np.savetxt('$T/W.txt', np.random.default_rng($3).integers(-8, 8, size=($1, $2)), fmt='%d')"
  cmvm_kernel "$T/W.txt" 16 > "$T/k.otir"
  lower "$T/k.otir" "" && prog "otir-cmvm$1x$2-w4"
done
for f in reduce8 abs-after-cmvm; do
  lower tests/lower/Inputs/$f.otir "" && prog "$f"
done
QM=tests/nn/Inputs/qonnx-mlp
opt $QM/graph.mlir --params $QM/params.npz --pass-pipeline='builtin.module(nn-to-circuit{input-type=fixed<16,6> drop-final-softmax=true})' --emit=alir-v4-json -o "$T/p.json"
prog qonnx-mlp
opt $QM/graph.mlir --params $QM/params.npz --pass-pipeline='builtin.module(nn-to-circuit{input-type=fixed<16,6>})' --emit=alir-v4-json -o "$T/p.json"
prog qonnx-mlp-softmax
"$T/otir-translate" --import-onnx backend/onnximport/testdata/qonnx/cnn.onnx -o "$T/cnn.mlir" --params-out "$T/cnn.npz"
opt "$T/cnn.mlir" --params "$T/cnn.npz" --pass-pipeline='builtin.module(nn-to-circuit)' --emit=alir-v4-json -o "$T/p.json"
prog qonnx-cnn
BN=tests/nn/Inputs/onnx-float
"$T/otir-translate" --import-onnx $BN/bn_mlp.onnx -o "$T/bn.mlir" --params-out "$T/bn.npz"
opt "$T/bn.mlir" --params "$T/bn.npz" --pass-pipeline="builtin.module(nn-quantize{calibration=$BN/bn_mlp.in0.npy weight-bits=8 overflow=wrap headroom-bits=0})" -o "$T/bn.q.mlir"
opt "$T/bn.q.mlir" --params "$T/bn.npz" --pass-pipeline='builtin.module(nn-to-circuit)' --emit=alir-v4-json -o "$T/p.json"
prog bn-mlp
"$T/otir-run" convert ../shared/conformance/alir/dais-v1-example/model.bin "$T/p.json" --to alir-v4-json
prog dais-v1-example
"$REF/bin/alkaid-py" "$REF/tools/gen_cmvm64.py" 2 32 "$T" >/dev/null
cp "$T/cmvm32_int8.json" "$T/p.json" && prog alkaid-cmvm32
cmvm_kernel "$T/W32_int8_seed2.txt" 8 > "$T/k.otir"
lower "$T/k.otir" "max-adder-depth=-1" && prog otir-cmvm32-min
cp ../shared/conformance/alir/alkaid-mlp/model-v4.json.gz "$D/alkaid-mlp.json.gz"
# Designs, small first: every program combinational, five pipelined.
rows=("reduce8 0" "abs-after-cmvm 0" "otir-cmvm8x32-w4 0" "otir-cmvm32x8-w4 0" "qonnx-mlp 0"
  "qonnx-mlp-softmax 0" "dais-v1-example 0" "reduce8 1" "abs-after-cmvm 2" "otir-cmvm8x32-w4 2"
  "qonnx-mlp 3" "dais-v1-example 2" "bn-mlp 0" "qonnx-cnn 0" "alkaid-cmvm32 0" "otir-cmvm32-min 0"
  "alkaid-mlp 0")
printf 'name\tcutoff\tluts\tcarry\tffs\n' > "$D/calibration.tsv"
for r in "${rows[@]}"; do
  set -- $r
  synth_row "$1" "$2" | tee -a "$D/calibration.tsv"
done
