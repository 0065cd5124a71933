#!/bin/bash
# The jet tagger's logits as one integer network in both tools, for
# bench/pareto.sh and bench/lut-model.sh:
#
#   bench/alkaid/jet.sh BINDIR OUT
#
# BINDIR holds otir-translate and otir-opt. Writes into OUT: jet.mlir
# (tests/nn/Inputs/jet's graph without its final softmax), jet.npz,
# options (the nn-quantize / nn-to-circuit options that quantize it:
# calibration, 8-bit weights, 10-bit activations and input), jet.q.mlir
# (nn-quantize with them), rows.txt (the 256 test rows, on the input's
# grid) and alkaid/ (alkaid's program of jet.q.mlir and its outputs on the
# rows: bench/alkaid/trace_graph.py). Needs REF (default /work/ref/bin:
# alkaid-py) and /usr/bin/python3 with numpy.
set -euo pipefail
cd "$(dirname "$0")/../.."
B=$1 O=$2
REF=${REF:-/work/ref/bin}
J=tests/nn/Inputs/jet
mkdir -p "$O"
"$B/otir-translate" --import-onnx $J/model.onnx --graph-name jet -o "$O/jet-full.mlir" --params-out "$O/jet.npz"
sed '/nn.softmax/d; s/nn.return %7 : tensor<1x5xf64>/nn.return %6 : tensor<1x5xf64>/' "$O/jet-full.mlir" > "$O/jet.mlir"
echo "calibration=$J/calib.npy act-bits=10 input-bits=10" > "$O/options"
"$B/otir-opt" "$O/jet.mlir" --params "$O/jet.npz" --pass-pipeline="builtin.module(nn-quantize{$(cat "$O/options")})" -o "$O/jet.q.mlir"
/usr/bin/python3 -c "
import numpy as np
x = np.load('$J/test.npy').reshape(-1, 16).astype(np.float64)
np.savetxt('$O/rows.txt', np.clip(np.floor(x * 32), -512, 511) / 32, fmt='%.17g')"
"$REF/alkaid-py" bench/alkaid/trace_graph.py "$O/jet.q.mlir" "$O/jet.npz" "$O/rows.txt" "$O/alkaid" >&2
