#!/usr/bin/python3
"""Inputs and expected outputs of tests/nn/qonnx-cnn.lit for the QONNX CNN
backend/onnximport/testdata/qonnx/cnn.onnx (written by gen.py there): 32
random inputs on the grid of its 8-bit input quantizer (scale 1/16), as
the circuit's input codes (codes.txt) and the float64 reference's outputs
(expected.txt: ref.py there, QONNX's quantizers transcribed).
Run: /usr/bin/python3 gen.py (deterministic: a fixed seed)."""
import os
import sys

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
QONNX = os.path.join(HERE, "../../../../backend/onnximport/testdata/qonnx")
sys.path.insert(0, QONNX)
import ref  # noqa: E402

model = onnx.load(os.path.join(QONNX, "cnn.onnx"))
rng = np.random.default_rng(2727)
codes = rng.integers(-128, 128, size=(32, 36))
with open(os.path.join(HERE, "codes.txt"), "w") as c, open(os.path.join(HERE, "expected.txt"), "w") as e:
    for row in codes:
        y = ref.run(model, (row / 16.0).reshape(1, 1, 6, 6))
        c.write(" ".join(str(int(v)) for v in row) + "\n")
        e.write(" ".join("%.17g" % v for v in y.ravel()) + "\n")

# params.npz, for nn-absorb-quant-cnn-invalid.mlir: an input quantizer and
# a 3x3 convolution of one channel.
np.savez(os.path.join(HERE, "params.npz"), **{
    "qin.scale": np.float64(0.25), "qin.zero_point": np.float64(0),
    "c.weight": np.arange(9, dtype=np.float64).reshape(1, 1, 3, 3) - 4, "c.bias": np.zeros(1)})
