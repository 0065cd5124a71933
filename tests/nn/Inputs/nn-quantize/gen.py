#!/usr/bin/python3
"""Inputs of the nn-quantize tests (tests/nn/nn-quantize-*.mlir), and the types calibration must
give, computed here by NumPy from the float graph's values (never from otir).

Writes next to this script: params.npz (the payload of graph.mlir), calib.npy (a batch of 16
samples of %x), and prints the expected type of every tensor as the tests CHECK them:
width by kind (input-bits=8 for %x, func-bits=6 for sqrt/inv, act-bits=10 for the others),
k = 1 when a negative value is seen, i = the fewest integer bits with max < 2^i and
min >= -2^i, f = width - k - i; shape kinds keep their operand's type.

Run: /usr/bin/python3 tests/nn/Inputs/nn-quantize/gen.py   (deterministic: seed 7)
"""
import math
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(7)
w = np.round(rng.uniform(-1, 1, (3, 4)) * 16) / 16
b = np.round(rng.uniform(-1, 1, (3,)) * 8) / 8
x = rng.uniform(-3, 3, (16, 4))
np.savez(os.path.join(HERE, "params.npz"), **{"fc.weight": w, "fc.bias": b})
np.save(os.path.join(HERE, "calib.npy"), x)


def kif(vals, width):
    lo, hi = float(np.min(vals)), float(np.max(vals))
    k = 1 if lo < 0 else 0
    i = None
    if hi > 0:
        i = math.frexp(hi)[1]
    if lo < 0:
        fr, e = math.frexp(-lo)
        i = max(i if i is not None else e - (fr == 0.5), e - (fr == 0.5))
    if i is None:
        i = 0
    f = width - k - i
    s = "i" if k else "u"
    return f"!quant.uniform<{s}{width}:f64, {repr(math.ldexp(1.0, -f))}>"


# graph.mlir: %0 = linear(x); %1 = relu(%0); %2 = softmax(%1); %3 = layer_norm(%0)
h = x @ w.T + b
r = np.maximum(h, 0)
mu = h.mean(axis=1)
c = h - mu[:, None]
var = (c * c).mean(axis=1)
eps = 1e-5  # layer_norm's default epsilon, an inline nn.const %3.eps
sd = np.sqrt(var + eps)
isd = 1 / sd
ln = c * isd[:, None]
# The softmax %2 is not calibrated: it becomes lookup tables whose types
# softmax-bits fixes (docs/nn-to-circuit.md "A softmax as lookup tables").
for name, vals, width in [("%x", x, 8), ("%0", h, 10), ("%1", r, 10), ("%3.mean", mu, 10), ("%3.centered", c, 10),
                          ("%3.square", c * c, 10), ("%3.var", var, 10), ("%3.eps", np.array([eps]), 10),
                          ("%3.vareps", var + eps, 10), ("%3.std", sd, 6), ("%3.inv", isd, 6),
                          ("%3.normalized", ln, 10)]:
    print(name, kif(vals, width))
