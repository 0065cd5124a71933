#!/usr/bin/python3
"""The weight and bias types nn-quantize{weight-bits=N bias-bits=M} must write (tests/nn/nn-quantize-weights.lit),
computed here by NumPy, never by otir.

Writes weights.npz (and wide.npz) next to this script: float weights for graph.mlir's "fc" that lie off every grid, the
largest 0.998 (at 8 bits, 2^-7 would round it to 128 > 127: the format must drop to 2^-6). Prints, per payload
(params.npz, weights.npz) and widths, the types: the signed N-bit format of the finest scale 2^-F at which every
value, rounded to nearest (ties to even), lies in [-2^(N-1), 2^(N-1)-1]; for the bias, F is at most the
accumulator's (the input's F, 5 for graph.mlir's %x calibrated at 8 bits, plus the weight's).

Run: /usr/bin/python3 tests/nn/Inputs/nn-quantize/weights.py   (deterministic: seed 11)
"""
import os
from fractions import Fraction

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(11)
w = rng.uniform(-0.9, 0.9, (3, 4))
w[1, 2] = 0.998
b = rng.uniform(-3, 3, (3,))
np.savez(os.path.join(HERE, "weights.npz"), **{"fc.weight": w, "fc.bias": b})
# wide.npz: float64 weights spanning scales (0.9 and 0.001 with full mantissas): their exact products
# need more than 62 bits, which only weight-bits cures.
w2 = w.copy()
w2[0, 0] = 0.001 * (1 + 2.0 ** -45)
np.savez(os.path.join(HERE, "wide.npz"), **{"fc.weight": w2, "fc.bias": b})


def fit(vals, n, cap=200):
    for f in range(cap, -200, -1):
        rs = [round(Fraction(float(v)) * 2 ** f) for v in vals]  # half to even
        if all(-(2 ** (n - 1)) <= r <= 2 ** (n - 1) - 1 for r in rs):
            return f
    raise ValueError("no format")


def text(n, f):
    return f"!quant.uniform<i{n}:f64, {repr(2.0 ** -f)}>"


XF = 5  # graph.mlir's %x: i8 at 2^-5 by calibration
for name in ("params.npz", "weights.npz"):
    p = np.load(os.path.join(HERE, name))
    for wb, bb in ((8, 16), (8, 4), (4, 8)):
        fw = fit(p["fc.weight"].ravel(), wb)
        fb = fit(p["fc.bias"], bb, cap=XF + fw)
        print(f"{name} weight-bits={wb} bias-bits={bb}: bias_type = {text(bb, fb)}, weight_type = {text(wb, fw)}")
