"""Rows the BatchNorm MLP (../onnx-float/bn_mlp.onnx) never saw in
calibration (../onnx-float/bn_mlp.calib.npy): 32 calibration rows tripled,
then clipped to ±3.4 so that every input stays in the range calibration
gave the input (±3.6), while the hidden layers' values leave theirs
(tests/nn/nn-quantize-overflow.lit). Run with /usr/bin/python3 (NumPy)."""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
calib = np.load(os.path.join(HERE, "..", "onnx-float", "bn_mlp.calib.npy"))
big = np.clip(calib[:32] * 3, -3.4, 3.4).astype(np.float32)
np.save(os.path.join(HERE, "big.npy"), big)
