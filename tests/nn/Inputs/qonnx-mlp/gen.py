#!/usr/bin/env python3
"""A QONNX MLP in the form otir-translate's importer gives (nn.quant of the
input, of the weights and biases and of the activations; batch norm as
sub/mul/add; a final softmax), its payload, inputs on the fixed<16,6> grid,
and the expected circuit outputs (the logits: drop-final-softmax=true),
computed here in exact rational arithmetic (fractions) by a transcription of
QONNX's reference quant (src/qonnx/custom_op/general/quant.py): divide by
the scale, add the zero point, clamp, round by the mode, subtract, rescale.

Run from this directory: python3 gen.py (writes graph.mlir, params.npz,
inputs.txt, codes.txt: the same inputs as the input quantizer's codes,
expected.txt)."""
import math
from fractions import Fraction as F

import numpy as np

rng = np.random.default_rng(27)
N_IN, N_HID, N_OUT, ROWS = 8, 12, 4, 64


def f32(a):
    return np.asarray(a, dtype=np.float32).astype(np.float64)


def rnd(v, mode):
    fl = math.floor(v)
    if mode == "FLOOR":
        return fl
    if mode == "CEIL":
        return math.ceil(v)
    if mode == "UP":
        return math.ceil(v) if v > 0 else math.floor(v)
    if mode == "DOWN":
        return math.floor(v) if v > 0 else math.ceil(v)
    frac = v - fl
    if frac != F(1, 2):
        return fl + (1 if frac > F(1, 2) else 0)
    if mode == "HALF_UP":
        return fl + 1 if v > 0 else fl
    if mode == "HALF_DOWN":
        return fl if v > 0 else fl + 1
    return fl if fl % 2 == 0 else fl + 1  # ROUND: half to even


def quant(x, scale, zp, bits, signed, narrow, mode):
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if narrow:
        lo, hi = (lo + 1, hi) if signed else (lo, hi - 1)
    s, z = F(float(scale)), F(float(zp))
    v = min(max(x / s + z, lo), hi)
    return (rnd(v, mode) - z) * s


p = {}
p["qin.scale"] = np.array(2.0 ** -10)  # the input quantizer: 16 bits, 6 integer
p["qin.zero_point"] = np.array(0.0)
p["w1"] = rng.normal(size=(N_HID, N_IN))
p["qw1.scale"] = (2.0 ** -rng.integers(2, 5, size=(N_HID, 1))).astype(np.float64)  # per row, po2
p["qw1.zero_point"] = np.array(0.0)
p["b1"] = f32(rng.normal(size=N_HID))
p["qb1.scale"] = np.array(2.0 ** -8)
p["qb1.zero_point"] = np.array(0.0)
p["qa.scale"] = np.array(0.125)  # po2 activations, ROUND: the half-even form
p["qa.zero_point"] = np.array(0.0)
p["w2"] = rng.normal(size=(N_OUT, N_HID))
p["qw2.scale"] = f32(rng.uniform(0.05, 0.5, size=(N_OUT, 1)))  # per row, float32
p["qw2.zero_point"] = np.array(0.0)
p["bn.mean"] = f32(rng.normal(size=N_OUT))
p["bn.a"] = f32(rng.normal(size=N_OUT))
p["bn.a"][1] = -abs(p["bn.a"][1])
p["bn.beta"] = f32(rng.normal(size=N_OUT))
np.savez("params.npz", **p)

T = lambda *s: "tensor<" + "x".join(map(str, s)) + "xf64>"
graph = f"""module {{
  nn.graph @mlp(%arg0: {T(1, N_IN)}) -> {T(1, N_OUT)} {{
    %0 = nn.quant %arg0 {{params = "qin", bits = 16, signed = true, narrow = false, rounding = "ROUND"}} : ({T(1, N_IN)}) -> {T(1, N_IN)}
    %1 = nn.const {{params = "w1"}} : () -> {T(N_HID, N_IN)}
    %2 = nn.quant %1 {{params = "qw1", bits = 6, signed = true, narrow = true, rounding = "ROUND"}} : ({T(N_HID, N_IN)}) -> {T(N_HID, N_IN)}
    %3 = nn.permute %2 {{perm = [1, 0]}} : ({T(N_HID, N_IN)}) -> {T(N_IN, N_HID)}
    %4 = nn.matmul %0, %3 : ({T(1, N_IN)}, {T(N_IN, N_HID)}) -> {T(1, N_HID)}
    %5 = nn.const {{params = "b1"}} : () -> {T(N_HID)}
    %6 = nn.quant %5 {{params = "qb1", bits = 12, signed = true, narrow = false, rounding = "ROUND"}} : ({T(N_HID)}) -> {T(N_HID)}
    %7 = nn.broadcast_to %6 : ({T(N_HID)}) -> {T(1, N_HID)}
    %8 = nn.add %4, %7 : ({T(1, N_HID)}, {T(1, N_HID)}) -> {T(1, N_HID)}
    %9 = nn.relu %8 : ({T(1, N_HID)}) -> {T(1, N_HID)}
    %10 = nn.quant %9 {{params = "qa", bits = 6, signed = false, narrow = false, rounding = "ROUND"}} : ({T(1, N_HID)}) -> {T(1, N_HID)}
    %11 = nn.const {{params = "w2"}} : () -> {T(N_OUT, N_HID)}
    %12 = nn.quant %11 {{params = "qw2", bits = 4, signed = true, narrow = true, rounding = "ROUND"}} : ({T(N_OUT, N_HID)}) -> {T(N_OUT, N_HID)}
    %13 = nn.permute %12 {{perm = [1, 0]}} : ({T(N_OUT, N_HID)}) -> {T(N_HID, N_OUT)}
    %14 = nn.matmul %10, %13 : ({T(1, N_HID)}, {T(N_HID, N_OUT)}) -> {T(1, N_OUT)}
    %15 = nn.const {{params = "bn.mean"}} : () -> {T(N_OUT)}
    %16 = nn.broadcast_to %15 : ({T(N_OUT)}) -> {T(1, N_OUT)}
    %17 = nn.sub %14, %16 : ({T(1, N_OUT)}, {T(1, N_OUT)}) -> {T(1, N_OUT)}
    %18 = nn.const {{params = "bn.a"}} : () -> {T(N_OUT)}
    %19 = nn.broadcast_to %18 : ({T(N_OUT)}) -> {T(1, N_OUT)}
    %20 = nn.mul %17, %19 : ({T(1, N_OUT)}, {T(1, N_OUT)}) -> {T(1, N_OUT)}
    %21 = nn.const {{params = "bn.beta"}} : () -> {T(N_OUT)}
    %22 = nn.broadcast_to %21 : ({T(N_OUT)}) -> {T(1, N_OUT)}
    %23 = nn.add %20, %22 : ({T(1, N_OUT)}, {T(1, N_OUT)}) -> {T(1, N_OUT)}
    %24 = nn.softmax %23 {{axis = 1}} : ({T(1, N_OUT)}) -> {T(1, N_OUT)}
    nn.return %24 : {T(1, N_OUT)}
  }}
}}
"""
open("graph.mlir", "w").write(graph)

# inputs on the fixed<16,6> grid: q·2^-10, q in [-2^15, 2^15)
xs = rng.integers(-(1 << 15), 1 << 15, size=(ROWS, N_IN)) / 1024.0


def model(row):
    x = [quant(F(float(v)), p["qin.scale"], 0, 16, True, False, "ROUND") for v in row]
    w1 = [[quant(F(float(p["w1"][o, i])), p["qw1.scale"][o, 0], 0, 6, True, True, "ROUND") for i in range(N_IN)] for o in range(N_HID)]
    b1 = [quant(F(float(v)), p["qb1.scale"], 0, 12, True, False, "ROUND") for v in p["b1"]]
    h = [sum(x[i] * w1[o][i] for i in range(N_IN)) + b1[o] for o in range(N_HID)]
    h = [quant(max(v, 0), p["qa.scale"], 0, 6, False, False, "ROUND") for v in h]
    w2 = [[quant(F(float(p["w2"][o, i])), p["qw2.scale"][o, 0], 0, 4, True, True, "ROUND") for i in range(N_HID)] for o in range(N_OUT)]
    y = [sum(h[i] * w2[o][i] for i in range(N_HID)) for o in range(N_OUT)]
    return [(y[o] - F(float(p["bn.mean"][o]))) * F(float(p["bn.a"][o])) + F(float(p["bn.beta"][o])) for o in range(N_OUT)]


def fmt(v):
    return "%.17g" % float(v)  # the exact value rounded to float64, printed as otir-run does


np.save("row0.npy", xs[:1])  # the first input row, for the float graph of division.mlir

with open("inputs.txt", "w") as fi, open("codes.txt", "w") as fc, open("expected.txt", "w") as fe:
    for row in xs:
        fi.write(" ".join(fmt(v) for v in row) + "\n")
        fc.write(" ".join(fmt(v * 1024) for v in row) + "\n")  # the input quantizer's codes
        fe.write(" ".join(fmt(v) for v in model(row)) + "\n")
