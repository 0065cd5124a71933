"""Rows the BatchNorm MLP (../onnx-float/bn_mlp.onnx) never saw in
calibration (../onnx-float/bn_mlp.calib.npy): 32 calibration rows tripled
(big.npy) or multiplied by 8 (huge.npy), then clipped to ±3.4 so that every
input stays in the range calibration gave the input (±3.6), while the
hidden layers' values leave theirs: by up to 3 times (beyond what no
headroom holds) and up to 8 times (beyond what the default headroom bit
holds) (tests/nn/nn-quantize-overflow.lit). Run with /usr/bin/python3
(NumPy)."""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
calib = np.load(os.path.join(HERE, "..", "onnx-float", "bn_mlp.calib.npy"))
for name, k in [("big", 3), ("huge", 8)]:
    rows = np.clip(calib[:32] * k, -3.4, 3.4).astype(np.float32)
    np.save(os.path.join(HERE, name + ".npy"), rows)
