#!/usr/bin/python3
"""Writes the QONNX models of otir's QONNX tests (issue 27, docs/qonnx.md).

Run with Debian's python3 (numpy, onnx; nothing else):

    /usr/bin/python3 tests/qonnx/Inputs/gen.py

Deterministic (fixed seeds). The models are built with onnx.helper:

- five equivalents of the QONNX model zoo's MLPs (fastmachinelearning/
  qonnx_model_zoo; the zoo's files are not copied into the repository):
  the operator patterns, opsets, domains, attribute forms and quantizer
  settings are the zoo files', the weights random (TFC, KWS and UNSW-NB15
  with 32 hidden units instead of 64 or 256);
- random QONNX MLPs: power-of-two and other scales, per-channel weight
  scales, every rounding mode, narrow and signed variants, 1-bit (bipolar)
  quantizers, BatchNormalization with negative and zero gammas, float
  Mul/Add/Div by constants between quantizers, Trunc, BipolarQuant outputs;
- two small random QONNX CNNs (a quantized 3x3 Conv with per-channel
  scales, BatchNormalization, Relu, Flatten, a quantized MatMul).

For each model NAME it writes:

    NAME.onnx        the model (batch of one, as the zoo's)
    NAME.in.npy      S samples on the model's input grid, [S, *input shape], float64
    NAME.ref.npy     the float64 reference outputs, [S, *output shape]
    NAME.logits.npy  when the graph ends in a Softmax: the float64 reference
                     of its operand (the softmax's exp is libm's, NumPy's or
                     Go's, which may differ in the last bit)
    NAME.exact.txt   the exact outputs of the circuit (before a final
                     Softmax, which the circuit drops), one sample per
                     line, each value a rational p/q

and models.json: per model its input type (the circuit's input-type=...),
whether the circuit drops a final softmax, and a description.

The float64 reference evaluates the ONNX graph node by node as otir's
importer lays it out (docs/nn.md, "QONNX quantizers"): the quantizers are
QONNX's reference functions (qonnx_ref.py, a NumPy transcription of
QONNX's custom_op/general) with the rounding decided on the exact value of
x/scale + zero_point, the rest float64 arithmetic in the evaluator's order
(sums left to right; BatchNormalization as (x - mean)·a + beta with
a = gamma/sqrt(var + eps) folded in float64; Div by a constant c as a
product by the float64 1/c; Pow of constants folded). The exact model
evaluates the same graph in rational arithmetic (Python's fractions) from
the same float64 constants (a and the folded Pow included; Div exact). The
generator asserts that both agree on every output that a quantizer
produces, and on every other output up to the float64 rounding of the
exact value (reported when not bit-identical).
"""
import json
import math
import os
import sys
from fractions import Fraction

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "nn", "Inputs", "qonnx"))
# QONNX's reference quantizers, transcribed line for line (one copy, shared
# with tests/nn/Inputs/qonnx/gen.py).
from qonnx_ref import binary_quant, compute_max_val, float_quant, int_quant, max_int, min_int, multithreshold_node  # noqa: E402

# How often QONNX's literal int_quant (the integer decided on the float64
# quotient x/scale) differs from the exact decision, per model.
LITERAL = {"differ": 0, "values": 0}


# ---------------------------------------------------------------------------
# Exact rounding of rationals, the decisions the float64 reference takes on
# the exact value of x/scale + zero_point (docs/nn.md).


def round_exact(v, mode):
    """The integer ROUNDMODE(v) of a Fraction v."""
    s = 1 if v > 0 else (-1 if v < 0 else 0)
    a = abs(v)
    if mode == "ROUND":
        return round(v)  # Fraction.__round__: half to even
    if mode == "CEIL":
        return math.ceil(v)
    if mode == "FLOOR":
        return math.floor(v)
    if mode == "UP":
        return s * math.ceil(a)
    if mode == "DOWN":
        return s * math.floor(a)
    if mode == "HALF_UP":
        return s * math.floor(a + Fraction(1, 2))
    if mode == "HALF_DOWN":
        return s * math.ceil(a - Fraction(1, 2))
    raise ValueError(mode)


def quant_codes(x, scale, zp, bits, signed, narrow, mode):
    """The integer codes n of QONNX's Quant, decided exactly: x, scale, zp
    are arrays of float64 numbers or Fractions (broadcast)."""
    lo, hi = min_int(signed, narrow, bits), max_int(signed, narrow, bits)

    def one(xv, sv, zv):
        v = Fraction(xv) / Fraction(sv) + Fraction(zv)
        if bits == 1 and signed:
            return 1 if v >= 0 else -1
        return round_exact(min(max(v, lo), hi), mode)

    return np.vectorize(one, otypes=[object])(x, scale, zp)


def float_values(x, scale, E, M, bias, max_val, mode):
    """FloatQuant's values q (before the rescale by the scale) decided on the
    exact x/scale: the binade, the step 2^max(k - M, 1 - bias - M), the
    rounding, the clamp to ±min(compute_max_val, max_val)."""
    mv0 = Fraction(float(compute_max_val(E, M, bias)))

    def one(xv, sv, mv):
        y = Fraction(xv) / Fraction(sv)
        if y == 0:
            return Fraction(0)
        a = abs(y)
        k = a.numerator.bit_length() - a.denominator.bit_length()
        if Fraction(2) ** k > a:
            k -= 1
        e = max(k - M, 1 - bias - M)
        q = round_exact(y / Fraction(2) ** e, mode) * Fraction(2) ** e
        m = min(mv0, Fraction(mv))
        return max(-m, min(m, q))

    return np.vectorize(one, otypes=[object])(x, scale, max_val)


def trunc_codes(x, scale, zp, in_bits, out_bits, mode):
    def one(xv, sv, zv):
        v = round(Fraction(xv) / Fraction(sv) + Fraction(zv))
        return round_exact(Fraction(v, 2 ** (in_bits - out_bits)), mode)

    return np.vectorize(one, otypes=[object])(x, scale, zp)


# ---------------------------------------------------------------------------
# The two arithmetics of the reference evaluator.


class Float64:
    """float64 arrays; the quantizers decide exactly and rescale in float64,
    a zero taking the sign QONNX's NumPy gives it (CEIL of -0.25 is -0,
    HALF_DOWN of +0 is -0), as the evaluator's zeros do."""

    exact = False

    @staticmethod
    def const(a):
        return np.asarray(a, dtype=np.float64)

    @staticmethod
    def div_const(x, c):
        return x * (1.0 / c)

    @staticmethod
    def quant(x, scale, zp, bits, signed, narrow, mode):
        n = quant_codes(x, scale, zp, bits, signed, narrow, mode).astype(np.float64)
        y = (n - zp) * scale
        literal = int_quant(x, scale, zp, bits, signed, narrow, mode)
        LITERAL["differ"] += int(np.sum(literal != y))
        LITERAL["values"] += y.size
        return np.where((y == 0) & (literal == 0), literal, y)

    @staticmethod
    def trunc(x, scale, zp, in_bits, out_bits, signed, narrow, mode):
        n = trunc_codes(x, scale, zp, in_bits, out_bits, mode).astype(np.float64)
        return (n - zp) * scale

    @staticmethod
    def bipolar(x, scale):
        return binary_quant(x, scale)

    @staticmethod
    def float_quant(x, scale, E, M, bias, max_val, mode):
        q = float_values(x, scale, E, M, bias, max_val, mode).astype(np.float64)
        y = q * scale
        literal = float_quant(x, scale, E, M, bias, max_val, mode)
        LITERAL["differ"] += int(np.sum(literal != y))
        LITERAL["values"] += y.size
        return np.where((y == 0) & (literal == 0), literal, y)


class Exact:
    """object arrays of Fractions."""

    exact = True

    @staticmethod
    def const(a):
        a = np.asarray(a, dtype=np.float64)
        return np.vectorize(Fraction, otypes=[object])(a)

    @staticmethod
    def div_const(x, c):
        return x / Exact.const(c)

    @staticmethod
    def quant(x, scale, zp, bits, signed, narrow, mode):
        n = quant_codes(x, scale, zp, bits, signed, narrow, mode)
        return (n - zp) * scale

    @staticmethod
    def trunc(x, scale, zp, in_bits, out_bits, signed, narrow, mode):
        n = trunc_codes(x, scale, zp, in_bits, out_bits, mode)
        return (n - zp) * scale

    @staticmethod
    def bipolar(x, scale):
        one = np.vectorize(lambda v: Fraction(1) if v >= 0 else Fraction(-1), otypes=[object])
        return one(x) * scale

    @staticmethod
    def float_quant(x, scale, E, M, bias, max_val, mode):
        return float_values(x, scale, E, M, bias, max_val, mode) * scale


def matmul(a, b, zero):
    """[m, k]·[k, n], summed left to right from zero (the evaluator's order)."""
    acc = np.full((a.shape[0], b.shape[1]), zero, dtype=a.dtype if a.dtype == object else np.float64)
    for k in range(a.shape[1]):
        acc = acc + a[:, k : k + 1] * b[k : k + 1, :]
    return acc


def conv2d(x, w, pads, strides, zero, group=1):
    """NCHW convolution of group groups (output channel o reads the input
    channels of group o // (oc/group)), no dilation: sums over (c, kh, kw)
    in that order from zero."""
    if group > 1:
        oc, gc = w.shape[0], w.shape[1]
        per = oc // group
        return np.concatenate([conv2d(x[:, k * gc : (k + 1) * gc], w[k * per : (k + 1) * per], pads, strides, zero)
                               for k in range(group)], axis=1)
    n, c, h, wd = x.shape
    oc, _, kh, kw = w.shape
    pt, pl, pb, pr = pads
    xp = np.full((n, c, h + pt + pb, wd + pl + pr), zero, dtype=x.dtype)
    xp[:, :, pt : pt + h, pl : pl + wd] = x
    oh = (h + pt + pb - kh) // strides[0] + 1
    ow = (wd + pl + pr - kw) // strides[1] + 1
    y = np.full((n, oc, oh, ow), zero, dtype=x.dtype)
    for ci in range(c):
        for i in range(kh):
            for j in range(kw):
                patch = xp[:, ci : ci + 1, i : i + strides[0] * oh : strides[0], j : j + strides[1] * ow : strides[1]]
                y = y + patch * w[None, :, ci, i, j, None, None]
    return y


def window_pads(a, spatial_shape, kernel, strides):
    """A window node's pads in ONNX's order (begins, then ends): its pads
    attribute, or those auto_pad SAME_UPPER / SAME_LOWER gives (ceil(size /
    stride) outputs, the odd cell at the end for UPPER)."""
    ap = a.get("auto_pad", "NOTSET")
    d = len(kernel)
    if ap in ("SAME_UPPER", "SAME_LOWER"):
        begins, ends = [], []
        for size, k, s in zip(spatial_shape, kernel, strides):
            total = max((-(-size // s) - 1) * s + k - size, 0)
            small, big = total // 2, total - total // 2
            begins.append(small if ap == "SAME_UPPER" else big)
            ends.append(big if ap == "SAME_UPPER" else small)
        return begins + ends
    return list(a.get("pads", [0] * 2 * d))


def dilate(w, dilations, zero):
    """A convolution weight [O, C, k...] with its taps spread by dilations:
    zeros between them (ONNX's dilated kernel as a dense one)."""
    if not dilations or all(d == 1 for d in dilations):
        return w
    ext = [(k - 1) * d + 1 for k, d in zip(w.shape[2:], dilations)]
    out = np.full(w.shape[:2] + tuple(ext), zero, dtype=w.dtype)
    out[(slice(None), slice(None)) + tuple(slice(None, None, d) for d in dilations)] = w
    return out


def attrs_of(node):
    out = {}
    for a in node.attribute:
        v = helper.get_attribute_value(a)
        out[a.name] = v.decode() if isinstance(v, bytes) else v
    return out


def evaluate(model, x, ar, stop_before_softmax=False):
    """Evaluates the graph on one sample x (the input's full shape) in
    arithmetic ar (Float64 or Exact); returns the output (before a final
    Softmax when stop_before_softmax)."""
    g = model.graph
    raw = {t.name: numpy_helper.to_array(t) for t in g.initializer}  # constants, folded in float64 (or int64 shapes)
    val = {}  # tensors in ar's form
    inp = [i for i in g.input if i.name not in raw][0]
    val[inp.name] = ar.const(x) if ar.exact else np.asarray(x, dtype=np.float64)

    def T(name):
        if name in raw:
            return ar.const(raw[name].astype(np.float64))
        return val[name]

    def f64(name):
        return raw[name].astype(np.float64)

    out_name = g.output[0].name
    for node in g.node:
        op, a, ins, o = node.op_type, attrs_of(node), list(node.input), node.output[0]
        if stop_before_softmax and op == "Softmax" and o == out_name:
            return val[ins[0]]
        channels_last = node.domain == "qonnx.custom_op.channels_last"
        if channels_last:  # QONNX's ChannelsLastWrappedOp: the op on channels-first copies of the input (and a Conv's weight), its output moved back
            r = T(ins[0]).ndim
            first = (0, r - 1) + tuple(range(1, r - 1))
            moved = [ins[0]] + ([ins[1]] if op == "Conv" else [])
            for k, name in enumerate(moved):
                val[name + "#first"] = np.transpose(T(name), first)
                ins[k] = name + "#first"
            o_last, o = o, o + "#first"
        if op == "Shape":
            raw[o] = np.array(model_shape(g, ins[0], val), dtype=np.int64)
        elif op == "Gather":
            raw[o] = np.take(raw[ins[0]], raw[ins[1]].astype(np.int64), axis=a.get("axis", 0))
        elif op == "Unsqueeze" and ins[0] in raw:
            raw[o] = np.expand_dims(raw[ins[0]], tuple(a["axes"]))
        elif op in ("Unsqueeze", "Squeeze"):  # axes an attribute before opset 13, an input from it
            axes = tuple(int(q) for q in (a["axes"] if "axes" in a else raw[ins[1]]))
            val[o] = np.expand_dims(T(ins[0]), axes) if op == "Unsqueeze" else np.squeeze(T(ins[0]), axis=axes)
        elif op in ("Identity", "Dropout"):
            val[o] = T(ins[0])
        elif op == "Concat" and not all(i in raw for i in ins):
            val[o] = np.concatenate([T(i) for i in ins], axis=a["axis"])
        elif op == "Concat":
            raw[o] = np.concatenate([np.atleast_1d(raw[i]).astype(np.int64) for i in ins], axis=a["axis"])
        elif op in ("Add", "Sub", "Mul", "Div", "Pow") and all(i in raw for i in ins):
            fn = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide, "Pow": np.power}[op]
            raw[o] = fn(f64(ins[0]), f64(ins[1]))
        elif op == "Reshape":
            val[o] = T(ins[0]).reshape([int(s) for s in raw[ins[1]]])
        elif op == "Flatten":
            v = T(ins[0])
            ax = a.get("axis", 1)
            val[o] = v.reshape(int(np.prod(v.shape[:ax])), -1)
        elif op == "Transpose":
            val[o] = np.transpose(T(ins[0]), a["perm"])
        elif op == "Quant":
            scale, zp, bits = f64(ins[1]), f64(ins[2]), int(f64(ins[3]))
            val[o] = ar.quant(T(ins[0]), ar.const(scale), ar.const(zp), bits, bool(a.get("signed", 1)),
                              bool(a.get("narrow", 0)), a.get("rounding_mode", "ROUND"))
        elif op == "FloatQuant":
            E, M, bias = (int(f64(i)) for i in ins[2:5])
            val[o] = ar.float_quant(T(ins[0]), ar.const(f64(ins[1])), E, M, bias, ar.const(f64(ins[5])), a.get("rounding_mode", "ROUND"))
        elif op == "BipolarQuant":
            val[o] = ar.bipolar(T(ins[0]), ar.const(f64(ins[1])))
        elif op == "Trunc":
            scale, zp, ib, ob = f64(ins[1]), f64(ins[2]), int(f64(ins[3])), int(f64(ins[4]))
            val[o] = ar.trunc(T(ins[0]), ar.const(scale), ar.const(zp), ib, ob, bool(a.get("signed", 1)),
                              bool(a.get("narrow", 0)), a.get("rounding_mode", "FLOOR"))
        elif op in ("MatMul", "Gemm"):
            A, B = T(ins[0]), T(ins[1])
            if a.get("transA", 0):
                A = A.T
            if a.get("transB", 0):
                B = B.T
            y = matmul(A, B, zero(ar))
            if op == "Gemm" and len(ins) > 2 and ins[2]:
                y = y + T(ins[2])
            val[o] = y
        elif op == "GlobalAveragePool":  # summed row by row from zero, then divided, as the evaluator does
            v = T(ins[0])
            acc = np.full(v.shape[:2] + (1, 1), zero(ar), dtype=v.dtype)
            for i in range(v.shape[2]):
                for j in range(v.shape[3]):
                    acc = acc + v[:, :, i : i + 1, j : j + 1]
            n = v.shape[2] * v.shape[3]
            val[o] = acc / Fraction(n) if ar.exact else acc / n
        elif op == "Conv" and T(ins[0]).ndim == 3:  # Conv1d as a 2-D convolution of [N, C, 1, L]
            v, w = T(ins[0]), dilate(T(ins[1]), a.get("dilations"), zero(ar))
            pb, pe = window_pads(a, v.shape[2:], w.shape[2:], a.get("strides", [1]))
            y = conv2d(v.reshape(v.shape[0], v.shape[1], 1, -1), w.reshape(w.shape[0], w.shape[1], 1, -1), [0, pb, 0, pe],
                       [1] + list(a.get("strides", [1])), zero(ar), a.get("group", 1))
            if len(ins) > 2 and ins[2]:
                y = y + T(ins[2]).reshape(1, -1, 1, 1)
            val[o] = y.reshape(y.shape[0], y.shape[1], -1)
        elif op == "Conv":
            v, w = T(ins[0]), dilate(T(ins[1]), a.get("dilations"), zero(ar))
            st = a.get("strides", [1, 1])
            pads = window_pads(a, v.shape[2:], w.shape[2:], st)
            y = conv2d(v, w, pads, st, zero(ar), a.get("group", 1))
            if len(ins) > 2 and ins[2]:
                y = y + T(ins[2]).reshape(1, -1, 1, 1)
            val[o] = y
        elif op == "BatchNormalization":
            gamma, beta, mean, var = (f64(i) for i in ins[1:5])
            eps = np.float64(np.float32(a.get("epsilon", 1e-5)))
            scale = gamma / np.sqrt(var + eps)  # folded in float64, as the importer does
            v = T(ins[0])
            shp = (1, -1) + (1,) * (v.ndim - 2)
            c = lambda p: ar.const(p.reshape(shp))
            val[o] = (v - c(mean)) * c(scale) + c(beta)
        elif op == "AveragePool":  # taps summed row by row from zero, then divided by the kernel's cells (count_include_pad=1), as the evaluator does
            v = T(ins[0])
            k, st = list(a["kernel_shape"]), list(a.get("strides", [1] * len(a["kernel_shape"])))
            pads = window_pads(a, v.shape[2:], k, st)
            v4 = v.reshape(v.shape[0], v.shape[1], 1, -1) if v.ndim == 3 else v
            if v.ndim == 3:
                k, st, pads = [1] + k, [1] + st, [0, pads[0], 0, pads[1]]
            shape4 = v4.shape
            v4 = np.pad(v4, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])), constant_values=zero(ar))
            oh, ow = (v4.shape[2] - k[0]) // st[0] + 1, (v4.shape[3] - k[1]) // st[1] + 1
            acc = np.full(v4.shape[:2] + (oh, ow), zero(ar), dtype=v4.dtype)
            for di in range(k[0]):
                for dj in range(k[1]):
                    acc = acc + v4[:, :, di : di + st[0] * oh : st[0], dj : dj + st[1] * ow : st[1]]
            n = k[0] * k[1]
            acc = acc / Fraction(n) if ar.exact else acc / n
            if a.get("count_include_pad", 0) == 0 and any(pads):
                # the importer's excludePadding: times n / (cells inside), a float64 constant
                inside = [[max(min(i * st[ax] + k[ax], pads[ax] + shape4[2 + ax]) - max(i * st[ax], pads[ax]), 0) for i in range(m)]
                          for ax, m in ((0, oh), (1, ow))]
                f = np.array([[np.float64(n) / (hi * wi) for wi in inside[1]] for hi in inside[0]])
                acc = acc * ar.const(f) if ar.exact else acc * f
            val[o] = acc.reshape(v.shape[:2] + (ow,)) if v.ndim == 3 else acc
        elif op == "MaxPool":  # on [N, C, L] or [N, C, H, W]; padding cells ignored (-inf)
            v = T(ins[0])
            k, st = a["kernel_shape"], a.get("strides", [1] * len(a["kernel_shape"]))
            pads = window_pads(a, v.shape[2:], k, st)
            if any(pads):  # padding cells never win: -inf, or in exact arithmetic a value below every other
                d = len(k)
                low = Fraction(-10**30) if ar.exact else -np.inf
                v = np.pad(v, ((0, 0), (0, 0)) + tuple((pads[i], pads[d + i]) for i in range(d)), constant_values=low)
            if v.ndim == 3:
                n = (v.shape[2] - k[0]) // st[0] + 1
                val[o] = np.stack([v[:, :, i * st[0] : i * st[0] + k[0]].max(axis=2) for i in range(n)], axis=2)
            else:
                oh, ow = (v.shape[2] - k[0]) // st[0] + 1, (v.shape[3] - k[1]) // st[1] + 1
                val[o] = np.stack([np.stack([v[:, :, i * st[0] : i * st[0] + k[0], j * st[1] : j * st[1] + k[1]].max(axis=(2, 3))
                                             for j in range(ow)], axis=2) for i in range(oh)], axis=2)
        elif op == "Clip":  # bounds as inputs (opset 11+) or attributes
            v = T(ins[0])
            lo = f64(ins[1]) if len(ins) > 1 and ins[1] else a.get("min")
            hi = f64(ins[2]) if len(ins) > 2 and ins[2] else a.get("max")
            if lo is not None:
                v = np.maximum(v, ar.const(np.float64(lo)))
            if hi is not None:
                v = np.minimum(v, ar.const(np.float64(hi)))
            val[o] = v
        elif op == "LeakyRelu":  # max(x, alpha·x), alpha the float32 attribute read exactly
            v = T(ins[0])
            al = ar.const(np.float64(np.float32(a.get("alpha", 0.01))))
            val[o] = np.maximum(v, v * al) if a.get("alpha", 0.01) <= 1 else np.minimum(v, v * al)
        elif op == "HardSigmoid":  # max(0, min(1, alpha·x + beta))
            v = T(ins[0]) * ar.const(np.float64(np.float32(a.get("alpha", 0.2)))) + ar.const(np.float64(np.float32(a.get("beta", 0.5))))
            val[o] = np.maximum(np.minimum(v, ar.const(np.float64(1))), ar.const(np.float64(0)))
        elif op == "HardSwish":  # x·HardSigmoid(x), alpha the float64 1/6 (the importer's), beta 0.5
            v = T(ins[0])
            hs = np.maximum(np.minimum(v * ar.const(np.float64(1.0 / 6)) + ar.const(np.float64(0.5)), ar.const(np.float64(1))), ar.const(np.float64(0)))
            val[o] = v * hs
        elif op == "Sigmoid":  # the float64 function of the float64 nearest the value, as the evaluator computes it
            v = T(ins[0])
            f = lambda u: 1.0 / (1.0 + np.exp(-u))
            val[o] = np.vectorize(lambda u: Fraction(float(f(float(u)))), otypes=[object])(v) if ar.exact else f(v)
        elif op == "Tanh":
            v = T(ins[0])
            val[o] = np.vectorize(lambda u: Fraction(float(np.tanh(float(u)))), otypes=[object])(v) if ar.exact else np.tanh(v)
        elif op == "Pad":  # constant, pads and value as inputs (opset 11+)
            v = T(ins[0])
            p = [int(q) for q in raw[ins[1]]]
            r = v.ndim
            fill = f64(ins[2]).item() if len(ins) > 2 and ins[2] else 0.0
            val[o] = np.pad(v, tuple((p[i], p[r + i]) for i in range(r)), constant_values=ar.const(np.float64(fill)) if ar.exact else fill)
        elif op == "MultiThreshold":  # QONNX's multithreshold; exactly: the count of thresholds t <= x
            v, t = T(ins[0]), f64(ins[1])
            osc, ob, lay = a.get("out_scale", 1.0), a.get("out_bias", 0.0), a.get("data_layout", "NCHW")
            if ar.exact:
                ax = 3 if v.ndim == 4 and lay == "NHWC" else 1 if v.ndim in (2, 4) else v.ndim - 1
                ch = np.indices(v.shape)[ax]
                cnt = np.vectorize(lambda u, c: sum(1 for th in t[0 if t.shape[0] == 1 else c] if u >= th), otypes=[object])(v, ch)
                val[o] = cnt * Fraction(np.float64(osc)) + Fraction(np.float64(ob))
            else:
                val[o] = multithreshold_node(v, t, osc, ob, lay)
        elif op == "ConvTranspose":  # the importer's form: zeros inserted and around, then a conv by the flipped, transposed kernel
            v, w = T(ins[0]), T(ins[1])
            k, st = list(w.shape[2:]), a.get("strides", [1] * (w.ndim - 2))[0]
            pads, op_ = a.get("pads", [0] * 2 * len(k)), a.get("output_padding", [0] * len(k))
            z = v
            for d in range(len(k)):
                ax, n = 2 + d, v.shape[2 + d]
                before, after = k[d] - 1 - pads[d], k[d] - 1 - pads[len(k) + d] + op_[d]
                shp = list(z.shape)
                shp[ax] = (n - 1) * st + 1 + before + after
                out = np.full(shp, zero(ar), dtype=z.dtype)
                idx = [slice(None)] * z.ndim
                idx[ax] = slice(before, before + (n - 1) * st + 1, st)
                out[tuple(idx)] = z
                z = out
            wf = np.flip(np.swapaxes(w, 0, 1), axis=tuple(range(2, w.ndim)))
            y = conv2d(z, wf, [0, 0, 0, 0], [1, 1], zero(ar))
            if len(ins) > 2 and ins[2]:
                y = y + T(ins[2]).reshape(1, -1, 1, 1)
            val[o] = y
        elif op == "Resize":  # nearest: each output cell copies the input cell of ONNX's coordinate transformation
            v = T(ins[0])
            sc = f64(ins[2])
            ctm, nm = a.get("coordinate_transformation_mode", "half_pixel"), a.get("nearest_mode", "round_prefer_floor")
            for ax in range(v.ndim):
                n, out = v.shape[ax], int(math.floor(v.shape[ax] * sc[ax]))
                xs_ = [(i + 0.5) / sc[ax] - 0.5 if ctm == "half_pixel" else i / sc[ax] for i in range(out)]
                rnd = {"round_prefer_floor": lambda x: math.ceil(x - 0.5), "floor": math.floor}[nm]
                v = np.take(v, [min(max(rnd(x), 0), n - 1) for x in xs_], axis=ax)
            val[o] = v
        elif op == "Relu":
            v = T(ins[0])
            val[o] = np.where(v > 0, v, zero(ar) * v)
        elif op in ("Elu", "Selu") and not ar.exact:  # ONNX's reference formulas, alpha and gamma the float32 attributes
            v = T(ins[0])
            al = np.float64(np.float32(a.get("alpha", 1.0 if op == "Elu" else 1.67326319217681884765625)))
            if op == "Elu":
                val[o] = np.clip(v, 0, np.inf) + (np.exp(np.clip(v, -np.inf, 0)) - 1) * al
            else:
                gm = np.float64(np.float32(a.get("gamma", 1.05070102214813232421875)))
                val[o] = np.clip(v, 0, np.inf) * gm + (np.exp(np.clip(v, -np.inf, 0)) * al - al) * gm
        elif op == "PRelu" and not ar.exact:
            v, sl = T(ins[0]), T(ins[1])
            val[o] = np.where(v < 0, v * sl, v)
        elif op == "Softsign" and not ar.exact:
            v = T(ins[0])
            val[o] = v / (1 + np.abs(v))
        elif op == "Div":
            val[o] = ar.div_const(T(ins[0]), f64(ins[1]))
        elif op in ("Add", "Sub", "Mul"):
            val[o] = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply}[op](T(ins[0]), T(ins[1]))
        elif op == "Softmax":
            v = T(ins[0])
            ax = a.get("axis", 1)
            e = np.exp(v - v.max(axis=ax, keepdims=True))
            val[o] = e / e.sum(axis=ax, keepdims=True)
        else:
            raise ValueError("op " + op)
        if channels_last:
            val[o_last] = np.transpose(val[o], np.argsort(first))
    return val[out_name]


def zero(ar):
    return Fraction(0) if ar.exact else 0.0


def model_shape(g, name, val):
    for i in g.input:
        if i.name == name:
            return [d.dim_value for d in i.type.tensor_type.shape.dim]
    return list(val[name].shape)


# ---------------------------------------------------------------------------
# Building models.


class Builder:
    """Accumulates nodes and initializers with generated names."""

    def __init__(self, rng):
        self.rng, self.nodes, self.inits, self.n = rng, [], [], 0

    def name(self, base):
        self.n += 1
        return f"{base}_{self.n}"

    def init(self, arr, base="c", dtype=np.float32):
        n = self.name(base)
        self.inits.append(numpy_helper.from_array(np.asarray(arr, dtype=dtype), n))
        return n

    def node(self, op, ins, domain="", **attrs):
        out = self.name(op)
        self.nodes.append(helper.make_node(op, ins, [out], domain=domain, name=out, **attrs))
        return out

    def quant(self, x, scale, bits, signed, narrow, mode="ROUND", zp=0.0, domain="qonnx.custom_op.general", int_params=False):
        pdt = np.int64 if int_params else np.float32
        return self.node("Quant", [x, self.init(scale), self.init(zp, dtype=pdt), self.init(bits, dtype=pdt)], domain=domain,
                         signed=int(signed), narrow=int(narrow), rounding_mode=mode)

    def float_quant(self, x, scale, E, M, bias, max_val, mode="ROUND", domain="qonnx.custom_op.general"):
        return self.node("FloatQuant", [x, self.init(scale), self.init(float(E)), self.init(float(M)), self.init(float(bias)),
                                        self.init(max_val)], domain=domain, rounding_mode=mode)

    def bn(self, x, gamma, beta, mean, var, **attrs):
        return self.node("BatchNormalization", [x, self.init(gamma), self.init(beta), self.init(mean), self.init(var)],
                         epsilon=1e-5, **attrs)


def make(b, name, in_shape, x, out, opsets, ir_version, inits_as_inputs=False, out_shape=None, value_info=False):
    inputs = [helper.make_tensor_value_info(x, TensorProto.FLOAT, in_shape)]
    if inits_as_inputs:
        inputs += [helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)) for t in b.inits]
    outputs = [helper.make_tensor_value_info(out, TensorProto.FLOAT, out_shape)]
    g = helper.make_graph(b.nodes, name, inputs, outputs, initializer=b.inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets], producer_name="otir tests/qonnx/Inputs/gen.py")
    m.ir_version = ir_version
    if value_info:  # the zoo's jet tagger and UNSW-NB15 carry the shapes of their tensors
        x0 = np.zeros(in_shape)
        shapes = trace_shapes(m, x0)
        m.graph.value_info.extend(helper.make_tensor_value_info(k, TensorProto.FLOAT, list(s)) for k, s in shapes.items() if k != out)
    return m


def trace_shapes(m, x):
    shapes = {}
    orig = m.graph.output[0].name
    for node in m.graph.node:
        m.graph.output[0].name = node.output[0]
        shapes[node.output[0]] = np.shape(evaluate(m, x, Float64))
    m.graph.output[0].name = orig
    return shapes


def grid(rng, shape, w, i, signed, n):
    """n samples on the grid of fixed<w,i> (signed) or ufixed<w,i>: integers
    in the w-bit range times 2^(i-w); the first two samples are the range's
    ends, the rest mostly small values with a few at random across the range."""
    f = w - i
    lo, hi = (-(2 ** (w - 1)), 2 ** (w - 1) - 1) if signed else (0, 2**w - 1)
    out = []
    for k in range(n):
        if k == 0:
            q = np.full(shape, lo)
        elif k == 1:
            q = np.full(shape, hi)
        elif k % 4 == 3:
            q = rng.integers(lo, hi + 1, size=shape)
        else:
            spread = max(1, (hi - lo) // 16)
            q = np.clip(np.round(rng.normal(0, spread, size=shape)) + (0 if signed else spread), lo, hi)
        out.append(np.asarray(q, dtype=np.float64) * 2.0**-f)
    return np.stack(out)


def fit_bn(rng, b, acc_fn, x, width, gammas=None):
    """BatchNormalization parameters that spread the accumulators acc over
    the following quantizer's range: mean and var near the samples'."""
    acc = np.stack([acc_fn(s) for s in x]).reshape(len(x), -1)
    mu, sd = acc.mean(axis=0), acc.std(axis=0) + 1e-3
    c = acc.shape[1]
    gamma = rng.uniform(0.5, 1.5, c) * width if gammas is None else gammas
    beta = rng.uniform(-0.5, 0.5, c) * width
    mean = mu + rng.normal(0, 0.1, c) * sd
    var = (sd * rng.uniform(0.8, 1.2, c)) ** 2
    return gamma, beta, mean, var


def partial(m, name, x):
    """The value of tensor name for sample x (Float64 reference)."""
    orig = m.graph.output[0].name
    m.graph.output[0].name = name
    try:
        return evaluate(m, x, Float64)
    finally:
        m.graph.output[0].name = orig


# ---------------------------------------------------------------------------
# The zoo's five MLPs.


def jet_tagger(rng):
    """hls4ml's QKeras jet tagger (models/JetTagging/QKeras_hls4ml_3layer):
    opset 9, finn.custom_op.general, weights and biases 6-bit signed at
    2^-5, activations 6-bit unsigned at 2^-6 after Relu, float input, Softmax."""
    b = Builder(rng)
    dom = "finn.custom_op.general"
    sizes = [16, 64, 32, 32, 5]
    weights = []
    for k in range(4):  # the zoo quantizes every parameter first, in this order
        W = rng.integers(-32, 32, size=(sizes[k], sizes[k + 1])) / 32 * 0.5 + rng.normal(0, 0.01, (sizes[k], sizes[k + 1]))
        bias = rng.normal(0, 0.2, sizes[k + 1])
        weights.append((b.quant(b.init(W), 0.03125, 6, True, False, domain=dom, int_params=True),
                        b.quant(b.init(bias), 0.03125, 6, True, False, domain=dom, int_params=True)))
    x = "global_in"
    h = x
    for k, (W, bias) in enumerate(weights):
        h = b.node("Add", [b.node("MatMul", [h, W]), bias])
        if k < 3:
            h = b.quant(b.node("Relu", [h]), 0.015625, 6, False, False, domain=dom, int_params=True)
    b.nodes.append(helper.make_node("Softmax", [h], ["global_out"], axis=1))
    return make(b, "jet_tagger", [1, 16], x, "global_out", [("", 9)], 4, out_shape=[1, 5], value_info=True), \
        ("fixed<16,6>", (16, 6, True))


def unsw_nb15(rng):
    """FINN's UNSW-NB15 MLP (models/UNSW_NB15/unsw_nb15_mlp_w2a2): opset 14
    plus onnx.brevitas 1, input bits b -> (b + 1)/2, Gemm(transB) by 2-bit
    narrow weights at non-po2 scales, BatchNormalization, Relu, 2-bit
    unsigned activations (the first 8-bit), BipolarQuant output with a
    symbolic output shape."""
    b = Builder(rng)
    dom = "onnx.brevitas"
    x = "onnx::Add_0"
    h = b.node("Div", [b.node("Add", [x, b.init([1.0])]), b.init(2.0)])
    sizes, hidden = [600, 32, 32, 32, 1], 3
    act = [(0.08842457830905914, 8), (8.083283424377441, 2), (1.4530895948410034, 2)]
    wscale = [27.76845359802246, 8.913976669311523, 9.128647804260254, 0.7742184400558472]
    xs = grid(rng, (1, 600), 1, 1, False, 8)
    for k in range(4):
        W = rng.uniform(-1.5, 1.5, size=(sizes[k + 1], sizes[k])) * wscale[k]
        bias = rng.normal(0, 1, sizes[k + 1])
        Wq = b.quant(b.init(W), wscale[k], 2, True, True, domain=dom)
        h = b.node("Gemm", [h, Wq, b.init(bias, "bias")], alpha=1.0, beta=1.0, transB=1)
        if k < hidden:
            m0 = make(b, "probe", [1, 600], x, h, [("", 14), (dom, 1)], 7)
            s, bits = act[k]
            gamma, beta, mean, var = fit_bn(rng, b, lambda v: partial(m0, h, v), xs, s * 2**bits / 2)
            h = b.bn(h, gamma, beta, mean, var, momentum=0.9, training_mode=0)
            h = b.quant(b.node("Relu", [h]), s, bits, False, False, domain=dom)
    out = "63"
    b.nodes.append(helper.make_node("BipolarQuant", [h, b.init(1.0)], [out], domain=dom))
    return make(b, "unsw_nb15", [1, 600], x, out, [("", 14), (dom, 1)], 7, out_shape=["BipolarQuant63_dim_0", "BipolarQuant63_dim_1"],
                value_info=True), ("ufixed<1,1>", (1, 1, False))


def tfc(rng, weight_bits):
    """FINN's TFC (models/MNIST/Brevitas_FINN_TFC/TFC/TFC_{1,2}W2A): opset 9,
    onnx.brevitas without an opset entry, initializers listed as graph
    inputs, a Shape/Gather/Unsqueeze/Concat/Reshape flatten, 2x - 1, 2-bit
    narrow signed activations at scale 1, weights BipolarQuant (1W) or
    2-bit narrow Quant (2W), BatchNormalization, and a float tail
    (x - mean)/Pow(var, 0.5)·w + b with no quantizer after it."""
    b = Builder(rng)
    dom = "onnx.brevitas"
    x = "0"
    shp = b.node("Shape", [x])
    g0 = b.node("Gather", [shp, b.init(0, dtype=np.int64)], axis=0)
    un = b.node("Unsqueeze", [g0], axes=[0])
    cat = b.node("Concat", [un, b.init([-1], dtype=np.int64)], axis=0)
    h = b.node("Reshape", [x, cat])
    h = b.node("Sub", [b.node("Mul", [h, b.init(2.0)]), b.init([1.0])])
    h = b.quant(h, 1.0, 2.0, True, True, domain=dom)
    sizes = [784, 32, 32, 32, 10]
    xs = grid(rng, (1, 1, 28, 28), 8, 0, False, 8)
    for k in range(4):
        W = rng.normal(0, 1, size=(sizes[k + 1], sizes[k]))
        if weight_bits == 1:
            Wq = b.node("BipolarQuant", [b.init(W), b.init(1.0)], domain=dom)
        else:
            Wq = b.quant(b.init(W), 1.0, 2.0, True, True, domain=dom)
        h = b.node("MatMul", [h, b.node("Transpose", [Wq], perm=[1, 0])])
        m0 = make(b, "probe", [1, 1, 28, 28], x, h, [("", 9)], 6)
        if k < 3:
            gamma, beta, mean, var = fit_bn(rng, b, lambda v: partial(m0, h, v), xs, 1.0)
            h = b.bn(h, gamma, beta, mean, var, momentum=0.9)
            h = b.quant(h, 1.0, 2.0, True, True, domain=dom)
        else:
            acc = np.stack([partial(m0, h, v) for v in xs])
            h = b.node("Sub", [h, b.init([acc.mean() + 0.3])])
            sd = b.node("Pow", [b.init([acc.var() * 1.7 + 3.0]), b.init(0.5)])
            h = b.node("Div", [h, sd])
            h = b.node("Mul", [h, b.init([rng.uniform(0.5, 1.0)])])
            out = "82"
            b.nodes.append(helper.make_node("Add", [h, b.init([rng.uniform(-1.5, -0.5)])], [out]))
    return make(b, f"tfc_{weight_bits}w2a", [1, 1, 28, 28], x, out, [("", 9)], 6, inits_as_inputs=True, out_shape=[1, 10]), \
        ("ufixed<8,0>", (8, 0, False))


def kws(rng):
    """FINN's KWS MLP (models/GSCV2/kwsmlp_w3a3): opset 11, onnx.brevitas
    without an opset entry, an 8-bit narrow Quant of the input at a non-po2
    scale, Flatten, 3-bit narrow weights with per-channel scales [out, 1],
    BatchNormalization, Relu, 3-bit unsigned activations at 1/7 (float32),
    a last MatMul with no quantizer after it."""
    b = Builder(rng)
    dom = "onnx.brevitas"
    x = "inp.1"
    h = b.quant(x, 0.8298503756523132, 8.0, True, True, domain=dom)
    h = b.node("Flatten", [h], axis=1)
    sizes = [490, 32, 32, 32, 12]
    xs = grid(rng, (1, 1, 10, 49), 16, 8, True, 8)
    act = np.float32(1 / 7)
    for k in range(4):
        W = rng.normal(0, 1, size=(sizes[k + 1], sizes[k]))
        if k < 3:
            s = rng.uniform(0.05, 0.4, size=(sizes[k + 1], 1)).astype(np.float32)
        else:
            s = np.float32(0.08102710545063019)
        W = W * s
        Wq = b.quant(b.init(W), s, 3.0, True, True, domain=dom)
        h = b.node("MatMul", [h, b.node("Transpose", [Wq], perm=[1, 0])])
        if k < 3:
            m0 = make(b, "probe", [1, 1, 10, 49], x, h, [("", 11)], 6)
            gamma, beta, mean, var = fit_bn(rng, b, lambda v: partial(m0, h, v), xs, 0.5)
            h = b.bn(h, gamma, beta, mean, var, momentum=0.9)
            h = b.quant(b.node("Relu", [h]), act, 3.0, False, False, domain=dom)
    return make(b, "kws_mlp", [1, 1, 10, 49], x, h, [("", 11)], 6, inits_as_inputs=True, out_shape=[1, 12]), \
        ("fixed<16,8>", (16, 8, True))


# ---------------------------------------------------------------------------
# Random QONNX MLPs.

MODES = ["ROUND", "CEIL", "FLOOR", "UP", "DOWN", "HALF_UP", "HALF_DOWN"]


def rand_scale(rng, po2, shape=()):
    if po2:
        return (2.0 ** rng.integers(-6, 2, size=shape)).astype(np.float32)
    return rng.uniform(0.02, 1.5, size=shape).astype(np.float32)


def random_mlp(rng, idx):
    """A random QONNX MLP: per layer a quantized weight (per-tensor or
    per-channel, po2 or not, narrow or not, 1 to 6 bits), a bias (float or
    quantized), optionally BatchNormalization (some gammas negative or zero)
    or a float Mul/Add/Div by constants, Relu or not, then a quantizer of a
    random setting; the last layer ends in a quantizer, a BipolarQuant, a
    Trunc, or nothing."""
    b = Builder(rng)
    dom = rng.choice(["qonnx.custom_op.general", "finn.custom_op.general", "onnx.brevitas"])
    opset = int(rng.choice([9, 11, 13, 14, 17]))
    nin = int(rng.integers(3, 9))
    sizes = [nin] + [int(rng.integers(3, 9)) for _ in range(int(rng.integers(1, 4)))] + [int(rng.integers(2, 5))]
    w_, i_ = int(rng.integers(4, 9)), int(rng.integers(1, 4))
    signed_in = bool(rng.integers(0, 2))
    itype = ("fixed" if signed_in else "ufixed") + f"<{w_},{i_}>"
    x = "x"
    h = x
    xs = grid(rng, (1, nin), w_, i_, signed_in, 10)
    if rng.integers(0, 3) == 0:  # the graph quantizes its own input
        h = b.quant(h, rand_scale(rng, bool(rng.integers(0, 2))), int(rng.integers(3, 8)), True, bool(rng.integers(0, 2)),
                    MODES[int(rng.integers(0, 7))], domain=dom)
    nl = len(sizes) - 1
    ending = ["quant", "bipolar", "none", "trunc", "quant1"][idx % 5]
    for k in range(nl):
        last = k == nl - 1
        fin, fout = sizes[k], sizes[k + 1]
        wbits = int(rng.integers(1, 7))
        per_ch = bool(rng.integers(0, 2))
        po2 = bool(rng.integers(0, 2))
        s = rand_scale(rng, po2, (fout, 1) if per_ch else ())
        W = rng.normal(0, 1, size=(fout, fin)) * s * max(1, 2 ** (wbits - 2))
        if wbits == 1:
            Wq = b.node("BipolarQuant", [b.init(W), b.init(s)], domain=dom) if rng.integers(0, 2) else \
                b.quant(b.init(W), s, 1, True, False, MODES[int(rng.integers(0, 7))], domain=dom)
        else:
            Wq = b.quant(b.init(W), s, wbits, True, bool(rng.integers(0, 2)), MODES[int(rng.integers(0, 7))], domain=dom)
        if rng.integers(0, 2):
            h = b.node("Gemm", [h, Wq] + ([b.init(rng.normal(0, 0.5, fout), "bias")] if rng.integers(0, 2) else []), transB=1)
        else:
            h = b.node("MatMul", [h, b.node("Transpose", [Wq], perm=[1, 0])])
            if rng.integers(0, 2):
                bias = rng.normal(0, 0.5, fout)
                bq = b.quant(b.init(bias), rand_scale(rng, True), 8, True, False, domain=dom) if rng.integers(0, 2) else b.init(bias)
                h = b.node("Add", [h, bq])
        m0 = make(b, "probe", [1, nin], x, h, [("", opset), (dom, 1)], 8)
        # the quantizer that follows: width, signedness, scale
        bits = int(rng.integers(1, 9)) if not last else int(rng.integers(2, 9))
        signed = bool(rng.integers(0, 2)) or bits == 1
        relu = bool(rng.integers(0, 2)) and not signed
        post = int(rng.integers(0, 3))
        if post == 0:  # BatchNormalization, some gammas negative, one zero
            gamma = rng.uniform(-1.5, 1.5, fout)
            gamma[int(rng.integers(0, fout))] = 0.0
            gamma, beta, mean, var = fit_bn(rng, b, lambda v: partial(m0, h, v), xs, 1.0, gammas=gamma)
            h = b.bn(h, gamma, beta, mean, var)
        elif post == 1:  # float affine by constants
            c = rng.uniform(0.3, 2.0) * (1 if rng.integers(0, 4) else -1)
            h = b.node("Div" if rng.integers(0, 2) else "Mul", [h, b.init(np.float32(c) if rng.integers(0, 2) else rng.uniform(0.3, 2.0, fout))])
            h = b.node("Add" if rng.integers(0, 2) else "Sub", [h, b.init(rng.normal(0, 0.5, fout))])
        if relu:
            h = b.node("Relu", [h])
        probe = make(b, "probe", [1, nin], x, h, [("", opset), (dom, 1)], 8)
        pre = np.stack([partial(probe, h, v) for v in xs])
        if pre.max() <= 0:
            signed = True
        qs = covering_scale(rng, pre, bits, signed, bool(rng.integers(0, 2)))
        mode = MODES[(idx + k) % 7]
        if not last:
            h = b.quant(h, qs, bits, signed, bool(rng.integers(0, 2)) and bits > 1, mode, domain=dom)
        elif ending == "quant":
            h = b.quant(h, qs, bits, signed, bool(rng.integers(0, 2)), mode, domain=dom)
        elif ending == "quant1":
            h = b.quant(h, qs, 1, True, False, mode, domain=dom)
        elif ending == "bipolar":
            if (pre.min(axis=0) >= 0).all() or (pre.max(axis=0) < 0).all():  # one sign on every sample: centre it
                h = b.node("Sub", [h, b.init(np.median(pre.reshape(len(pre), -1), axis=0) + 1e-3)])
            h = b.node("BipolarQuant", [h, b.init(qs)], domain=dom)
        elif ending == "trunc":  # Trunc v1 of a quantized accumulator: drop 2 low bits
            h = b.quant(h, qs, 8, True, False, "ROUND", domain=dom)
            h = b.node("Trunc", [h, b.init(qs), b.init(0.0), b.init(8.0), b.init(6.0)], domain=dom, rounding_mode=mode)
    return make(b, f"mlp{idx}", [1, nin], x, h, [("", opset), (dom, 1)], 8, out_shape=[1, sizes[-1]]), (itype, (w_, i_, signed_in))


def random_cnn(rng, idx):
    """A small random QONNX CNN: the input quantized by the graph, a 3x3
    Conv (padding 1, stride 1 or 2) by a quantized weight with per-channel
    scales, BatchNormalization (a negative and a zero gamma), Relu, a
    quantizer, Flatten, a MatMul by a quantized weight, and a quantizer or
    a BipolarQuant at the end."""
    b = Builder(rng)
    dom = "qonnx.custom_op.general"
    opset = int(rng.choice([11, 13, 17]))
    cin, cout, hw = int(rng.integers(1, 3)), int(rng.integers(2, 4)), int(rng.integers(4, 7))
    stride = int(rng.integers(1, 3))
    x = "x"
    xs = grid(rng, (1, cin, hw, hw), 8, 3, True, 10)
    h = b.quant(x, rand_scale(rng, True), 6, True, False, MODES[idx % 7], domain=dom)
    s = rand_scale(rng, bool(rng.integers(0, 2)), (cout, 1, 1, 1))
    W = rng.normal(0, 2, (cout, cin, 3, 3)) * s
    Wq = b.quant(b.init(W), s, 4, True, bool(rng.integers(0, 2)), MODES[(idx + 1) % 7], domain=dom)
    h = b.node("Conv", [h, Wq, b.init(rng.normal(0, 0.3, cout), "bias")], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[stride, stride])
    m0 = make(b, "probe", [1, cin, hw, hw], x, h, [("", opset), (dom, 1)], 8)
    gamma = rng.uniform(-1.5, 1.5, cout)
    gamma[0], gamma[-1] = 0.0, -abs(gamma[-1]) - 0.1
    acc = np.stack([partial(m0, h, v)[0] for v in xs])  # [S, cout, oh, ow]
    mu, sd = acc.mean(axis=(0, 2, 3)), acc.std(axis=(0, 2, 3)) + 1e-3
    h = b.bn(h, gamma, rng.normal(0, 0.3, cout), mu + rng.normal(0, 0.1, cout) * sd, (sd * rng.uniform(0.8, 1.2, cout)) ** 2)
    h = b.quant(b.node("Relu", [h]), np.float32(rng.uniform(0.2, 0.6)), 3, False, False, MODES[(idx + 2) % 7], domain=dom)
    h = b.node("Flatten", [h], axis=1)
    probe = make(b, "probe", [1, cin, hw, hw], x, h, [("", opset), (dom, 1)], 8)
    nflat = partial(probe, h, xs[0]).shape[1]
    nout = int(rng.integers(2, 5))
    W2 = rng.normal(0, 1, (nout, nflat)) * 0.25
    Wq2 = b.quant(b.init(W2), rand_scale(rng, True), 3, True, False, MODES[(idx + 3) % 7], domain=dom)
    h = b.node("MatMul", [h, b.node("Transpose", [Wq2], perm=[1, 0])])
    probe = make(b, "probe", [1, cin, hw, hw], x, h, [("", opset), (dom, 1)], 8)
    pre = np.stack([partial(probe, h, v) for v in xs])
    amax = max(abs(pre.min()), abs(pre.max()), 1e-3)
    if idx % 2:
        h = b.node("BipolarQuant", [h, b.init(np.float32(amax / 4))], domain=dom)
    else:
        h = b.quant(h, np.float32(amax / 16 * rng.uniform(0.8, 1.2)), 5, True, False, MODES[(idx + 4) % 7], domain=dom)
    return make(b, f"cnn{idx}", [1, cin, hw, hw], x, h, [("", opset), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


def covering_scale(rng, pre, bits, signed, po2):
    """The scale of a quantizer whose range covers the values pre: a power
    of two, or that step times a random factor in [0.8, 1.2)."""
    amax = max(abs(pre.min()), abs(pre.max()), 1e-3) if signed else max(pre.max(), 1e-3)
    step = amax / max(1, 2 ** (bits - 1) if signed else 2**bits - 1)
    return np.float32(2.0 ** round(np.log2(step))) if po2 else np.float32(step * rng.uniform(0.8, 1.2))


def covering_quant(b, rng, h, probe_of, xs, bits, signed, mode, dom, po2):
    """A quantizer of h whose range covers its values on the samples."""
    pre = np.stack([partial(probe_of(h), h, v) for v in xs])
    qs = covering_scale(rng, pre, bits, signed, po2)
    return b.quant(h, qs, bits, signed, False, mode, domain=dom), qs


def sampled_input(b, rng, shape, opset, dom, idx, bits):
    """Samples of the input "x" of shape on its fixed<8,3> grid, the probe of
    a tensor, and x quantized (bits, signed, a power-of-two scale)."""
    xs = grid(rng, tuple(shape), 8, 3, True, 10)
    probe_of = lambda h: make(b, "probe", shape, "x", h, [("", opset), (dom, 1)], 8)
    return xs, probe_of, b.quant("x", rand_scale(rng, True), bits, True, False, MODES[idx % 7], domain=dom)


def small_model(rng, idx, conv, bits):
    """The start of the small opset-13 models (act, fq, curve): their
    Builder, QONNX's domain, the input [1, 2, 4, 4] for a CNN or [1, c] (c
    in 3..6), and sampled_input's samples, probe and input quantizer (bits):
    (b, dom, shape, xs, probe_of, h)."""
    b = Builder(rng)
    dom = "qonnx.custom_op.general"
    shape = [1, 2, 4, 4] if conv else [1, int(rng.integers(3, 7))]
    xs, probe_of, h = sampled_input(b, rng, shape, 13, dom, idx, bits)
    return b, dom, shape, xs, probe_of, h


def block_start(rng, idx, conv, hw_end):
    """The start of a residual or concatenating block: its Builder, QONNX's
    domain, the input "x" of a random opset, [1, c] (c in 3..6) or
    [1, c, hw, hw] (c 1 or 2, hw in 3..hw_end-1), samples on its fixed<8,3>
    grid, the probe of a tensor, and the input quantized to 6 bits at a
    power-of-two scale s0: (b, dom, x, opset, shape, xs, probe_of, s0, h0)."""
    b = Builder(rng)
    dom = "qonnx.custom_op.general"
    opset = int(rng.choice([11, 13, 17]))
    x = "x"
    if conv:
        c, hw = int(rng.integers(1, 3)), int(rng.integers(3, hw_end))
        shape = [1, c, hw, hw]
    else:
        c = int(rng.integers(3, 7))
        shape = [1, c]
    xs = grid(rng, tuple(shape), 8, 3, True, 10)
    probe_of = lambda h: make(b, "probe", shape, x, h, [("", opset), (dom, 1)], 8)
    s0 = rand_scale(rng, True)
    return b, dom, x, opset, shape, xs, probe_of, s0, b.quant(x, s0, 6, True, False, MODES[idx % 7], domain=dom)


def weight4(b, rng, shape, ws, mode, dom):
    """A 4-bit quantizer (scale ws, mode) of a random constant weight whose
    values reach about twice the scale's range."""
    return b.quant(b.init(rng.normal(0, 1, shape) * ws * 2), ws, 4, True, False, mode, domain=dom)


def conv3x3(b, h, Wq):
    """A 3x3 Conv of stride 1 with padding 1."""
    return b.node("Conv", [h, Wq], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1])


def conv_bn(b, rng, h, probe_of, xs, n):
    """A BatchNormalization of the n channels of a convolution h whose
    statistics follow h's on the samples: gammas of both signs, a mean
    near the channel's, a variance near its."""
    acc = np.stack([partial(probe_of(h), h, v)[0] for v in xs])  # [S, n, H, W]
    mu, sd = acc.mean(axis=(0, 2, 3)), acc.std(axis=(0, 2, 3)) + 1e-3
    gamma = rng.uniform(0.5, 1.5, n) * np.where(rng.integers(0, 4, n) == 0, -1, 1)
    return b.bn(h, gamma, rng.normal(0, 0.3, n), mu + rng.normal(0, 0.1, n) * sd, (sd * rng.uniform(0.8, 1.2, n)) ** 2)


def quantized_head(b, rng, h, probe_of, xs, idx, w_mode, dom):
    """The head every generated block ends in: a MatMul by 3-bit weights (the
    Transpose of a quantized [nout, n] constant whose power-of-two scale the
    codes use the range of) and a 6-bit power-of-two quantizer; the output
    and nout."""
    nflat = partial(probe_of(h), h, xs[0]).shape[1]
    nout = int(rng.integers(2, 5))
    W2 = rng.normal(0, 1, (nout, nflat))
    s2 = np.float32(2.0 ** round(np.log2(np.abs(W2).max() / 3)))
    h = b.node("MatMul", [h, b.node("Transpose", [b.quant(b.init(W2), s2, 3, True, False, w_mode, domain=dom)], perm=[1, 0])])
    h, _ = covering_quant(b, rng, h, probe_of, xs, 6, True, MODES[idx % 7], dom, True)
    return h, nout


def random_resnet(rng, idx, conv, join=None):
    """A residual block as Brevitas and hls4ml users build one: the input
    quantized; a branch of two quantized layers (Gemm or MatMul, or 3x3
    Convs with padding 1 and BatchNormalization), the first with a Relu and
    a quantizer, the second with a quantizer; the join, Add (or Sub) of the
    branch and the skip (the input's quantizer, or a quantizer of its own
    on it); then Relu, a quantizer, a last quantized MatMul (after Flatten)
    and a quantizer. The scales of the branch's and the skip's quantizers
    are equal (idx % 4 == 0), a power of two apart (1), or unrelated
    (2, 3: a per-tensor float32 factor, and for 3 the skip requantized).
    join="Mul" makes the join a product (a gate) of the branch and the
    skip."""
    b, dom, x, opset, shape, xs, probe_of, s0, h0 = block_start(rng, idx, conv, 6)
    c = shape[1]
    h = h0
    for layer in range(2):
        ws = rand_scale(rng, bool(rng.integers(0, 2)), (c, 1, 1, 1) if conv else ())
        Wq = weight4(b, rng, (c, c, 3, 3) if conv else (c, c), ws, MODES[(idx + layer) % 7], dom)
        if conv:
            h = conv_bn(b, rng, conv3x3(b, h, Wq), probe_of, xs, c)
        else:
            if rng.integers(0, 2):
                h = b.node("Gemm", [h, Wq, b.init(rng.normal(0, 0.5, c), "bias")], transB=1)
            else:
                h = b.node("MatMul", [h, b.node("Transpose", [Wq], perm=[1, 0])])
        if layer == 0:
            h = b.node("Relu", [h])
            h, _ = covering_quant(b, rng, h, probe_of, xs, 4, False, MODES[(idx + 2) % 7], dom, bool(rng.integers(0, 2)))
    kind = idx % 4
    branch_scale = {0: s0, 1: np.float32(s0 * 2.0 ** int(rng.integers(-2, 3)))}.get(kind)
    if branch_scale is None:
        h, _ = covering_quant(b, rng, h, probe_of, xs, 6, True, MODES[(idx + 3) % 7], dom, False)
    else:
        h = b.quant(h, branch_scale, 8, True, False, MODES[(idx + 3) % 7], domain=dom)
    skip = h0
    if kind == 3:
        skip = b.quant(h0, np.float32(s0 * rng.uniform(0.6, 1.4)), 7, True, False, MODES[(idx + 4) % 7], domain=dom)
    h = b.node(join or ("Sub" if idx % 3 == 2 else "Add"), [h, skip])
    h = b.node("Relu", [h])
    h, _ = covering_quant(b, rng, h, probe_of, xs, 5, False, MODES[(idx + 5) % 7], dom, bool(idx % 2))
    if conv:
        h = b.node("Flatten", [h], axis=1)
    h, nout = quantized_head(b, rng, h, probe_of, xs, idx, MODES[(idx + 6) % 7], dom)
    name = ("gate" if join == "Mul" else "resnet") + ("_cnn" if conv else "") + str(idx)
    return make(b, name, shape, x, h, [("", opset), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


def random_mobile(rng, idx):
    """A MobileNet block as Brevitas exports one (the zoo's MobileNet): the
    input quantized; a depthwise 3x3 Conv (group = channels, stride 1 or
    2, padding 1) by a 4-bit weight with per-channel scales, BatchNorm,
    Relu and a quantizer; a pointwise 1x1 Conv (or, for odd idx, a grouped
    3x3 Conv of 2 groups); a quantizer; from idx 4 a GlobalAveragePool and
    a quantizer (from idx 8 Brevitas's TruncAvgPool2d instead: the pool
    over 49 or 9 cells, a Mul by the cells and a Trunc to the input's 5
    bits, FLOOR or ROUND; from idx 10 a 3x3 AveragePool of stride 3 on
    6x6, then a quantizer or, for 11, the Mul and Trunc; for 12 a 3x3
    AveragePool of stride 1 and padding 1 on 5x5, for 13 one of stride 2 on
    7x7: overlapping windows, then a quantizer); Flatten, a
    quantized MatMul and a quantizer."""
    b = Builder(rng)
    dom = "qonnx.custom_op.general"
    opset = int(rng.choice([11, 13, 17]))
    c, hw = 2 * int(rng.integers(1, 3)), int(rng.integers(4, 7))
    if idx >= 4:
        hw = [3, 6, 7, 5, 7, 3, 6, 6, 5, 7][idx - 4]  # the pool over 9, 36, 49 (MobileNet's 7x7), 25 cells
    shape = [1, c, hw, hw]
    x = "x"
    xs, probe_of, h = sampled_input(b, rng, shape, opset, dom, idx, 6)
    ws = rand_scale(rng, bool(rng.integers(0, 2)), (c, 1, 1, 1))
    Wd = rng.normal(0, 1, (c, 1, 3, 3)) * ws * 3
    stride = int(rng.integers(1, 3))
    if idx >= 4:
        stride = 1
    h = b.node("Conv", [h, b.quant(b.init(Wd), ws, 4, True, False, MODES[(idx + 1) % 7], domain=dom)],
               kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[stride, stride], group=c)
    h = conv_bn(b, rng, h, probe_of, xs, c)
    h, _ = covering_quant(b, rng, b.node("Relu", [h]), probe_of, xs, 4, False, MODES[(idx + 2) % 7], dom, bool(idx % 2))
    oc = 2 * int(rng.integers(1, 3))
    if idx % 2:
        W = rng.normal(0, 1, (oc, c // 2, 3, 3))
        pw = b.node("Conv", [h, b.quant(b.init(W), np.float32(0.5), 3, True, False, MODES[(idx + 3) % 7], domain=dom)],
                    kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=2)
    else:
        W = rng.normal(0, 1, (oc, c, 1, 1))
        pw = b.node("Conv", [h, b.quant(b.init(W), np.float32(0.5), 3, True, False, MODES[(idx + 3) % 7], domain=dom)],
                    kernel_shape=[1, 1])
    h, qs = covering_quant(b, rng, pw, probe_of, xs, 5, True, MODES[(idx + 4) % 7], dom, True)
    if idx >= 12:  # an AveragePool whose windows overlap: 3x3 of stride 1 and padding 1 (Inception's), or of stride 2 on 7x7
        pool = dict(kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1], count_include_pad=1) if idx == 12 else dict(kernel_shape=[3, 3], strides=[2, 2])
        h = b.node("AveragePool", [h], **pool)
        h, _ = covering_quant(b, rng, h, probe_of, xs, 6, True, MODES[(idx + 5) % 7], dom, False)
    elif idx >= 10:  # an AveragePool whose windows tile the plane: 3x3 (stride 3) on 6x6, then a quantizer
        h = b.node("AveragePool", [h], kernel_shape=[3, 3], strides=[3, 3])
        if idx == 11:  # Brevitas's TruncAvgPool2d of it
            h = b.node("Trunc", [b.node("Mul", [h, b.init(np.float32(9))]), b.init(qs), b.init(0.0), b.init(9.0), b.init(5.0)],
                       domain=dom, rounding_mode="FLOOR")
        else:
            h, _ = covering_quant(b, rng, h, probe_of, xs, 6, True, MODES[(idx + 5) % 7], dom, False)
    elif idx >= 8:  # Brevitas's TruncAvgPool2d: the pool, times its cells, then Trunc to the input's bits
        n = hw * hw
        h = b.node("Mul", [b.node("GlobalAveragePool", [h]), b.init(np.float32(n))])
        acc = 5 + int(np.ceil(np.log2(n)))
        h = b.node("Trunc", [h, b.init(qs), b.init(0.0), b.init(float(acc)), b.init(5.0)], domain=dom,
                   rounding_mode=["FLOOR", "ROUND"][idx % 2])
    elif idx >= 4:  # MobileNet's global average pool, then a quantizer
        h = b.node("GlobalAveragePool", [h])
        h, _ = covering_quant(b, rng, h, probe_of, xs, 6, True, MODES[(idx + 5) % 7], dom, idx % 2 == 0)
    h = b.node("Flatten", [h], axis=1)
    h, nout = quantized_head(b, rng, h, probe_of, xs, idx, MODES[(idx + 5) % 7], dom)
    return make(b, f"mobile{idx}", shape, x, h, [("", opset), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


def random_concat(rng, idx, conv):
    """A concatenation as DenseNet and Inception blocks and multi-branch
    hls4ml models use one: the input quantized; a branch of one quantized
    layer (Gemm, or a 3x3 Conv with padding 1 and BatchNormalization), a
    Relu and a quantizer; a Concat along the features or channels (axis 1,
    or -3 for a CNN when idx is odd) of the branch and: the input's
    quantizer (idx % 4 == 0, DenseNet's); a second branch, both before
    their Relus, which then follow the Concat with one quantizer (1); the
    raw input and a second branch (2: three operands, at the input's
    scale and the quantizers'); or a constant (3); then, for a CNN, a 1x1
    Conv and a quantizer; Flatten, a quantized MatMul and a quantizer."""
    b, dom, x, opset, shape, xs, probe_of, s0, h0 = block_start(rng, idx, conv, 5)
    c = shape[1]

    def branch(oc, layer, act=True):
        ws = rand_scale(rng, bool(rng.integers(0, 2)), (oc, 1, 1, 1) if conv else ())
        Wq = weight4(b, rng, (oc, c, 3, 3) if conv else (oc, c), ws, MODES[(idx + layer) % 7], dom)
        if conv:
            h = conv_bn(b, rng, conv3x3(b, h0, Wq), probe_of, xs, oc)
        else:
            h = b.node("Gemm", [h0, Wq, b.init(rng.normal(0, 0.5, oc), "bias")], transB=1)
        if not act:
            return h
        h = b.node("Relu", [h])
        return covering_quant(b, rng, h, probe_of, xs, 4, False, MODES[(idx + 2 + layer) % 7], dom, bool(layer))[0]

    kind = idx % 4
    oc = int(rng.integers(1, 4))
    h1 = branch(oc, 0, kind != 1)
    if kind == 0:
        parts = [h1, h0]
    elif kind == 1:
        parts = [branch(oc + 1, 1, False), h1]
    elif kind == 2:
        parts = [x, branch(oc, 1), h1]
    else:
        const = (rng.integers(-4, 5, [1, 2] + shape[2:]) * 0.25).astype(np.float32)
        parts = [h1, b.init(const, "token")]
    axis = -3 if conv and idx % 2 else 1
    h = b.node("Concat", parts, axis=axis)
    if kind == 1:
        h, _ = covering_quant(b, rng, b.node("Relu", [h]), probe_of, xs, 4, False, MODES[(idx + 6) % 7], dom, False)
    if conv:
        cin = partial(probe_of(h), h, xs[0]).shape[1]
        W = rng.normal(0, 1, (2, cin, 1, 1))
        h = b.node("Conv", [h, b.quant(b.init(W), np.float32(0.5), 3, True, False, MODES[(idx + 3) % 7], domain=dom)], kernel_shape=[1, 1])
        h, _ = covering_quant(b, rng, h, probe_of, xs, 5, True, MODES[(idx + 4) % 7], dom, True)
        h = b.node("Flatten", [h], axis=1)
    h, nout = quantized_head(b, rng, h, probe_of, xs, idx, MODES[(idx + 5) % 7], dom)
    name = "concat" + ("_cnn" if conv else "") + str(idx)
    return make(b, name, shape, x, h, [("", opset), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


def random_conv1d(rng, idx):
    """A 1-D CNN as trigger and signal-processing models build one (hls4ml's
    Conv1D): the input [1, C, L] quantized; a Conv1d of kernel 3 with
    padding 1 by 4-bit weights (per-channel scales for odd idx) and a
    quantized bias, Relu and a quantizer; for even idx a MaxPool1d of 2
    (FINN's VGG10 for RadioML), for idx 3 an AvgPool1d of 3 and a
    quantizer (for 4 of stride 1 and padding 1); a second Conv1d of kernel 3,
    stride 2 and padding 1 (0 for idx 1), a quantizer; Flatten, a
    quantized MatMul and a quantizer. The importer writes a padded Conv1d
    as an nn.concat of zeros at both ends before a 2-D convolution."""
    b = Builder(rng)
    dom = "qonnx.custom_op.general"
    opset = int(rng.choice([11, 13, 17]))
    c, n = int(rng.integers(1, 4)), int(rng.integers(8, 13))
    if idx == 3:
        n = 12
    shape = [1, c, n]
    x = "x"
    xs, probe_of, h = sampled_input(b, rng, shape, opset, dom, idx, 6)
    oc = int(rng.integers(2, 4))
    ws = rand_scale(rng, bool(idx % 2 == 0), (oc, 1, 1) if idx % 2 else ())
    W = rng.normal(0, 1, (oc, c, 3)) * ws * 2
    bias = b.quant(b.init(rng.normal(0, 0.5, oc), "bias"), np.float32(2.0**-4), 8, True, False, MODES[(idx + 1) % 7], domain=dom)
    h = b.node("Conv", [h, b.quant(b.init(W), ws, 4, True, False, MODES[(idx + 2) % 7], domain=dom), bias],
               kernel_shape=[3], pads=[1, 1], strides=[1])
    h, _ = covering_quant(b, rng, b.node("Relu", [h]), probe_of, xs, 4, False, MODES[(idx + 3) % 7], dom, bool(idx % 2))
    if idx >= 3:  # an AvgPool1d of 3 cells (its windows tile L; for 4 of stride 1 and padding 1), then a quantizer
        pool = dict(kernel_shape=[3], strides=[3]) if idx == 3 else dict(kernel_shape=[3], strides=[1], pads=[1, 1], count_include_pad=1)
        h = b.node("AveragePool", [h], **pool)
        h, _ = covering_quant(b, rng, h, probe_of, xs, 5, False, MODES[(idx + 4) % 7], dom, False)
    elif idx % 2 == 0:  # VGG10-RadioML's MaxPool1d
        h = b.node("MaxPool", [h], kernel_shape=[2], strides=[2])
    W1 = rng.normal(0, 1, (2, oc, 3))
    pad = 0 if idx == 1 else 1
    h = b.node("Conv", [h, b.quant(b.init(W1), np.float32(0.5), 3, True, False, MODES[(idx + 4) % 7], domain=dom)],
               kernel_shape=[3], pads=[pad, pad], strides=[2])
    h, _ = covering_quant(b, rng, h, probe_of, xs, 5, True, MODES[(idx + 5) % 7], dom, True)
    h = b.node("Flatten", [h], axis=1)
    h, nout = quantized_head(b, rng, h, probe_of, xs, idx, MODES[(idx + 6) % 7], dom)
    return make(b, f"conv1d{idx}", shape, x, h, [("", opset), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


def random_act(rng, idx):
    """The activations that ONNX writes as clamps (the importer's nn.max and
    nn.min), each between a quantized layer and a quantizer: Clip (ReLU6,
    its bounds as inputs), LeakyRelu (alpha 0.1, or 0.3 before a MaxPool
    in a CNN), HardSigmoid. Dense layers (Gemm) for idx 0..2, a 3x3 Conv
    with a MaxPool of 2 for 3."""
    conv = idx == 3
    b, dom, shape, xs, probe_of, h = small_model(rng, idx, conv, 6)
    c = shape[1]
    oc = int(rng.integers(3, 6))
    ws = rand_scale(rng, idx % 2 == 0, (oc, 1, 1, 1) if conv else ())
    if conv:
        W = rng.normal(0, 1, (oc, c, 3, 3)) * ws * 2
        h = b.node("Conv", [h, b.quant(b.init(W), ws, 4, True, False, MODES[(idx + 1) % 7], domain=dom)],
                   kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    else:
        W = rng.normal(0, 1, (oc, c)) * ws * 2
        h = b.node("Gemm", [h, b.quant(b.init(W), ws, 4, True, False, MODES[(idx + 1) % 7], domain=dom),
                            b.init(rng.normal(0, 0.5, oc), "bias")], transB=1)
    pre = np.stack([partial(probe_of(h), h, v) for v in xs])
    top = float(np.quantile(pre, 0.7))
    if idx == 0:  # ReLU6-like: a bound inside the values' range
        h = b.node("Clip", [h, b.init(np.array(0, np.float32), "lo"), b.init(np.array(top, np.float32), "hi")])
    elif idx == 1:
        h = b.node("LeakyRelu", [h], alpha=0.1)
    elif idx == 2:
        h = b.node("HardSigmoid", [h], alpha=float(np.float32(1 / max(abs(pre).max(), 1e-3))), beta=0.5)
    else:
        h = b.node("LeakyRelu", [h], alpha=0.3)
        h = b.node("MaxPool", [h], kernel_shape=[2, 2], strides=[2, 2])
    h, _ = covering_quant(b, rng, h, probe_of, xs, 4, True, MODES[(idx + 2) % 7], dom, idx % 2 == 1)
    if conv:
        h = b.node("Flatten", [h], axis=1)
    h, nout = quantized_head(b, rng, h, probe_of, xs, idx, MODES[(idx + 3) % 7], dom)
    return make(b, f"act{idx}", shape, "x", h, [("", 13), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


FP_FORMATS = {"e4m3": (4, 3, 7, 448.0), "e5m2": (5, 2, 15, 57344.0), "e3m1": (3, 1, 3, 15.0), "e2m1": (2, 1, 1, 6.0), "e3m2": (3, 2, 3, 28.0)}


def random_fq(rng, idx):
    """Minifloat networks as Brevitas exports them (FloatQuant, QONNX's
    minifloat quantizer): the input quantized by an 8-bit Quant; a layer
    (Gemm, or for idx 2 a 3x3 Conv) whose weight is a FloatQuant of a
    constant (E4M3, E3M2 or E2M1, per-tensor scale); Relu (not for idx 1:
    negative values too) and a FloatQuant activation (E4M3 with OCP's
    max_val 448, or E3M1); a MatMul by FloatQuant weights and an output
    quantizer (an 8-bit Quant, or for idx 3 a FloatQuant). E5M2's codes
    span 2^-16 to 2^16 steps, too wide for the next product's fitted
    forms: the evaluator's golden cases test it."""
    conv = idx == 2
    b, dom, shape, xs, probe_of, h = small_model(rng, idx, conv, 8)
    wf = FP_FORMATS[["e4m3", "e3m2", "e2m1", "e4m3"][idx]]
    af = FP_FORMATS[["e4m3", "e4m3", "e3m1", "e3m1"][idx]]
    oc = int(rng.integers(3, 6))
    if conv:
        W = rng.normal(0, 1, (oc, shape[1], 3, 3))
        ws = np.float32(np.abs(W).max() / wf[3])
        h = b.node("Conv", [h, b.float_quant(b.init(W), ws, *wf, domain=dom)], kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    else:
        W = rng.normal(0, 1, (oc, shape[1]))
        ws = np.float32(np.abs(W).max() / wf[3])
        h = b.node("Gemm", [h, b.float_quant(b.init(W), ws, *wf, domain=dom), b.init(rng.normal(0, 0.5, oc), "bias")], transB=1)
    if idx != 1:
        h = b.node("Relu", [h])
    pre = np.stack([partial(probe_of(h), h, v) for v in xs])
    as_ = np.float32(max(np.abs(pre).max(), 1e-3) / af[3] * rng.uniform(0.8, 1.5))
    h = b.float_quant(h, as_, *af, mode=["ROUND", "ROUND", "FLOOR", "ROUND"][idx], domain=dom)
    if conv:
        h = b.node("Flatten", [h], axis=1)
    nflat = partial(probe_of(h), h, xs[0]).shape[1]
    nout = int(rng.integers(2, 5))
    W2 = rng.normal(0, 1, (nout, nflat))
    w2s = np.float32(np.abs(W2).max() / wf[3])
    h = b.node("MatMul", [h, b.node("Transpose", [b.float_quant(b.init(W2), w2s, *wf, domain=dom)], perm=[1, 0])])
    if idx == 3:
        pre = np.stack([partial(probe_of(h), h, v) for v in xs])
        h = b.float_quant(h, np.float32(max(np.abs(pre).max(), 1e-3) / af[3]), *af, domain=dom)
    else:
        h, _ = covering_quant(b, rng, h, probe_of, xs, 8, True, MODES[idx % 7], dom, False)
    return make(b, f"fq{idx}", shape, "x", h, [("", 13), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


def quantized_layer(b, rng, h, shape, probe_of, xs, idx, conv, dom):
    """A layer of 2 to 4 outputs by 4-bit weights (power-of-two scales for
    even idx, per channel for a Conv): a Gemm with a float bias, or a 3x3
    Conv with batch norm."""
    oc = int(rng.integers(2, 5))
    ws = rand_scale(rng, idx % 2 == 0, (oc, 1, 1, 1) if conv else ())
    Wq = weight4(b, rng, (oc, shape[1], 3, 3) if conv else (oc, shape[1]), ws, MODES[(idx + 1) % 7], dom)
    if conv:
        return conv_bn(b, rng, conv3x3(b, h, Wq), probe_of, xs, oc)
    return b.node("Gemm", [h, Wq, b.init(rng.normal(0, 0.5, oc), "bias")], transB=1)


def random_curve(rng, idx):
    """Sigmoid and Tanh activations (Brevitas's QuantSigmoid and QuantTanh, a
    QKeras quantized_sigmoid): a quantized Gemm (idx 0, 1, 2) or 3x3 Conv with
    BatchNormalization (3), then Sigmoid (0, 3) or Tanh (1) before a
    quantizer (for 3 a MaxPool between them), then the quantized head; for
    idx 2 the head's output ends in a Sigmoid, a binary classifier's,
    which stays a float tail of the circuit."""
    conv = idx == 3
    b, dom, shape, xs, probe_of, h = small_model(rng, idx, conv, 6)
    h = quantized_layer(b, rng, h, shape, probe_of, xs, idx, conv, dom)
    h = b.node("Tanh" if idx == 1 else "Sigmoid", [h])
    if conv:
        h = b.node("MaxPool", [h], kernel_shape=[2, 2], strides=[2, 2])
    signed = idx == 1
    h = b.quant(h, np.float32([2.0**-4, 1 / 7.0, 1 / 15.0, 2.0**-3][idx]), 4, signed, False, MODES[(idx + 2) % 7], domain=dom)
    if conv:
        h = b.node("Flatten", [h], axis=1)
    h, nout = quantized_head(b, rng, h, probe_of, xs, idx, MODES[(idx + 3) % 7], dom)
    if idx == 2:
        h = b.node("Sigmoid", [h])
    return make(b, f"curve{idx}", shape, "x", h, [("", 13), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


def random_swish(rng, idx):
    """Activations that are not monotone, each between a quantized layer and
    a quantizer: HardSwish (MobileNetV3's; idx 0 the opset-14 operator
    after a Gemm, 1 PyTorch 1.13's HardSigmoid and Mul after a 3x3 Conv
    with BatchNormalization, then a MaxPool after the quantizer) and SiLU
    (x·Sigmoid(x); 2 after a Gemm, 3 after a 3x3 Conv); then the quantized
    head."""
    conv = idx in (1, 3)
    b, dom, shape, xs, probe_of, h = small_model(rng, idx, conv, 6)
    h = quantized_layer(b, rng, h, shape, probe_of, xs, idx, conv, dom)
    if idx == 0:
        h = b.node("HardSwish", [h])
    elif idx == 1:
        h = b.node("Mul", [h, b.node("HardSigmoid", [h], alpha=float(np.float32(1 / 6)), beta=0.5)])
    else:
        h = b.node("Mul", [h, b.node("Sigmoid", [h])])
    h, _ = covering_quant(b, rng, h, probe_of, xs, 4, True, MODES[(idx + 2) % 7], dom, idx % 2 == 1)
    if conv:
        if idx == 1:
            h = b.node("MaxPool", [h], kernel_shape=[2, 2], strides=[2, 2])
        h = b.node("Flatten", [h], axis=1)
    h, nout = quantized_head(b, rng, h, probe_of, xs, idx, MODES[(idx + 3) % 7], dom)
    return make(b, f"swish{idx}", shape, "x", h, [("", 14), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


def random_keras(rng, idx):
    """CNNs padded as Keras writes them ('same' padding through tf2onnx, a
    ZeroPadding2D): the input [1, c, hw, hw] quantized; a 3x3 Conv of
    stride 2 by 4-bit weights whose padding falls on one side (auto_pad
    SAME_UPPER on 8x8 for idx 0 and 2, pads [0, 0, 1, 1] on 6x6 for 1, a
    Pad node of one cell at the end of H and W before an unpadded Conv on
    6x6 for 3), Relu and a quantizer; then a pool: for 0 a MaxPool of 3,
    stride 2, SAME_UPPER (one cell at the end), for 1 a MaxPool of 2,
    stride 2, pads [0, 0, 1, 1], for 2 an AveragePool of 3, stride 1,
    SAME_UPPER, excluding its padding (Keras's 'same' average), for 3 an
    AveragePool of 2, stride 2, pads 1, excluding its padding; a
    quantizer, Flatten and the quantized head."""
    b = Builder(rng)
    dom = "qonnx.custom_op.general"
    c, hw = int(rng.integers(1, 3)), [8, 6, 8, 6][idx]
    shape = [1, c, hw, hw]
    xs, probe_of, h = sampled_input(b, rng, shape, 13, dom, idx, 6)
    oc = int(rng.integers(2, 4))
    ws = rand_scale(rng, idx % 2 == 0, (oc, 1, 1, 1))
    Wq = weight4(b, rng, (oc, c, 3, 3), ws, MODES[(idx + 1) % 7], dom)
    if idx == 3:
        h = b.node("Pad", [h, b.init(np.array([0, 0, 0, 0, 0, 0, 1, 1], np.int64), "pads", dtype=np.int64)])
        h = b.node("Conv", [h, Wq], kernel_shape=[3, 3], strides=[2, 2])
    elif idx == 1:
        h = b.node("Conv", [h, Wq], kernel_shape=[3, 3], strides=[2, 2], pads=[0, 0, 1, 1])
    else:
        h = b.node("Conv", [h, Wq], kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER")
    h, _ = covering_quant(b, rng, b.node("Relu", [h]), probe_of, xs, 4, False, MODES[(idx + 2) % 7], dom, bool(idx % 2))
    pool = [("MaxPool", dict(kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_UPPER")),
            ("MaxPool", dict(kernel_shape=[2, 2], strides=[2, 2], pads=[0, 0, 1, 1])),
            ("AveragePool", dict(kernel_shape=[3, 3], auto_pad="SAME_UPPER", count_include_pad=0)),
            ("AveragePool", dict(kernel_shape=[2, 2], strides=[2, 2], pads=[1, 1, 1, 1], count_include_pad=0))][idx]
    h = b.node(pool[0], [h], **pool[1])
    h, _ = covering_quant(b, rng, h, probe_of, xs, 5, True, MODES[(idx + 3) % 7], dom, idx % 2 == 0)
    h = b.node("Flatten", [h], axis=1)
    h, nout = quantized_head(b, rng, h, probe_of, xs, idx, MODES[(idx + 4) % 7], dom)
    return make(b, f"keras{idx}", shape, "x", h, [("", 13), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


def thresholds_of(rng, pre, n, per_channel):
    """FINN's thresholds of pre [S, C, ...] (channels on axis 1): n sorted
    float32 values per channel (or one row for all), spread over the
    values' range."""
    c = pre.shape[1]
    vals = np.moveaxis(pre, 1, -1).reshape(-1, c)
    rows = []
    for k in range(c if per_channel else 1):
        v = vals[:, k] if per_channel else vals.ravel()
        lo, hi = float(v.min()), float(v.max())
        rows.append(np.sort(rng.uniform(lo, hi + 1e-3, n)))
    return np.asarray(rows).astype(np.float32)


def random_finn(rng, idx):
    """QONNX graphs as FINN's streamlining leaves them: MultiThreshold
    activations (thresholds [C, T] as float32, out_bias for signed codes),
    layers whose weights are plain float32 integers (the importer's
    nn.linear). idx 0: an MLP, input Quant, MatMul by integers in [-3, 3],
    MultiThreshold of 7 per-channel thresholds (UINT3), MatMul, a global
    row of 15 thresholds with out_scale 0.5 and out_bias -4 (signed); 1: a
    3x3 Conv by 4-bit quantized weights, per-channel thresholds (NCHW), a
    MaxPool; 2: the MLP with a Gemm by plain float32 weights and bias
    before thresholds that repeat a value and are not sorted; 3: a Conv
    whose output is transposed to NHWC and thresholded there
    (data_layout=NHWC), then back. Each ends in the quantized head."""
    conv = idx in (1, 3)
    b, dom, shape, xs, probe_of, h = small_model(rng, idx, conv, 6)
    oc = int(rng.integers(2, 5))
    if conv:
        ws = rand_scale(rng, True, (oc, 1, 1, 1))
        h = conv3x3(b, h, weight4(b, rng, (oc, shape[1], 3, 3), ws, MODES[(idx + 1) % 7], dom))
    elif idx == 0:
        h = b.node("MatMul", [h, b.init(rng.integers(-3, 4, (shape[1], oc)).astype(np.float32), "w")])
    else:
        h = b.node("Gemm", [h, b.init(rng.normal(0, 1, (oc, shape[1])).astype(np.float32), "w"), b.init(rng.normal(0, 0.5, oc), "bias")], transB=1)
    layout = "NCHW"
    if idx == 3:
        h, layout = b.node("Transpose", [h], perm=[0, 2, 3, 1]), "NHWC"
    pre = np.stack([partial(probe_of(h), h, v)[0] for v in xs])
    if layout == "NHWC":
        pre = np.moveaxis(pre, -1, 1)
    t = thresholds_of(rng, pre, 7, True)
    if idx == 2:
        t[:, 3] = t[:, 2]  # a repeated threshold
        t = t[:, ::-1].copy()  # not sorted: a count is a count
    h = b.node("MultiThreshold", [h, b.init(t, "thresholds")], domain=dom, out_dtype="UINT3", data_layout=layout)
    if idx == 3:
        h = b.node("Transpose", [h], perm=[0, 3, 1, 2])
    if idx == 1:
        h = b.node("MaxPool", [h], kernel_shape=[2, 2], strides=[2, 2])
    if conv:
        h = b.node("Flatten", [h], axis=1)
    if idx == 0:
        n = partial(probe_of(h), h, xs[0]).shape[1]
        h = b.node("MatMul", [h, b.init(rng.integers(-3, 4, (n, 3)).astype(np.float32), "w2")])
        pre = np.stack([partial(probe_of(h), h, v)[0] for v in xs])
        h = b.node("MultiThreshold", [h, b.init(thresholds_of(rng, pre, 15, False), "t2")], domain=dom, out_dtype="INT4", out_scale=0.5, out_bias=-4.0)
    h, nout = quantized_head(b, rng, h, probe_of, xs, idx, MODES[(idx + 3) % 7], dom)
    return make(b, f"finn{idx}", shape, "x", h, [("", 13), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


def random_tcn(rng, idx):
    """A temporal convolutional network as trigger and signal-processing
    models build one: the input [1, C, L] quantized; a Conv1d of kernel 3,
    dilation 2 and padding 2 (idx 1: auto_pad SAME_UPPER, dilation 3) by
    4-bit weights, Relu and a quantizer; a Conv1d of kernel 3, dilation 4
    and padding 4; a quantizer, Flatten and the quantized head."""
    b = Builder(rng)
    dom = "qonnx.custom_op.general"
    c, n = int(rng.integers(1, 3)), int(rng.integers(12, 17))
    shape = [1, c, n]
    xs, probe_of, h = sampled_input(b, rng, shape, 13, dom, idx, 6)
    oc = int(rng.integers(2, 4))
    W = weight4(b, rng, (oc, c, 3), rand_scale(rng, True, (oc, 1, 1)), MODES[(idx + 1) % 7], dom)
    pad = dict(pads=[2, 2], dilations=[2]) if idx == 0 else dict(auto_pad="SAME_UPPER", dilations=[3])
    h = b.node("Conv", [h, W], kernel_shape=[3], strides=[1], **pad)
    h, _ = covering_quant(b, rng, b.node("Relu", [h]), probe_of, xs, 4, False, MODES[(idx + 2) % 7], dom, True)
    W2 = weight4(b, rng, (2, oc, 3), np.float32(0.25), MODES[(idx + 3) % 7], dom)
    h = b.node("Conv", [h, W2], kernel_shape=[3], pads=[4, 4], dilations=[4])
    h, _ = covering_quant(b, rng, h, probe_of, xs, 5, True, MODES[(idx + 4) % 7], dom, idx == 0)
    h = b.node("Flatten", [h], axis=1)
    h, nout = quantized_head(b, rng, h, probe_of, xs, idx, MODES[(idx + 5) % 7], dom)
    return make(b, f"tcn{idx}", shape, "x", h, [("", 13), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


def cnn_start(rng, idx, hh, ww):
    """The start of a small opset-13 CNN: its Builder, QONNX's domain, c
    (1 or 2) input channels, the input [1, c, hh, ww], sampled_input's
    samples, probe and 6-bit input quantizer, and oc (2 or 3) channels for
    the first layer: (b, dom, c, shape, xs, probe_of, h, oc)."""
    b = Builder(rng)
    dom = "qonnx.custom_op.general"
    c = int(rng.integers(1, 3))
    shape = [1, c, hh, ww]
    xs, probe_of, h = sampled_input(b, rng, shape, 13, dom, idx, 6)
    return b, dom, c, shape, xs, probe_of, h, int(rng.integers(2, 4))


def random_upsample(rng, idx):
    """A decoder's nearest upsampling (an autoencoder's, a U-Net's): the
    input [1, c, 3, 3] quantized; a 3x3 Conv (padding 1) by 4-bit weights,
    Relu and a quantizer; Resize by 2 (idx 0: PyTorch's asymmetric and
    floor; 1: half_pixel and round_prefer_floor, Keras's); a 3x3 Conv, a
    quantizer, Flatten and the quantized head."""
    b, dom, c, shape, xs, probe_of, h, oc = cnn_start(rng, idx, 3, 3)
    h = conv3x3(b, h, weight4(b, rng, (oc, c, 3, 3), rand_scale(rng, True, (oc, 1, 1, 1)), MODES[(idx + 1) % 7], dom))
    h, _ = covering_quant(b, rng, b.node("Relu", [h]), probe_of, xs, 4, False, MODES[(idx + 2) % 7], dom, True)
    mode = dict(coordinate_transformation_mode="asymmetric", nearest_mode="floor") if idx == 0 else dict(coordinate_transformation_mode="half_pixel")
    h = b.node("Resize", [h, "", b.init(np.array([1, 1, 2, 2], np.float32), "scales")], mode="nearest", **mode)
    h = b.node("Conv", [h, weight4(b, rng, (2, oc, 3, 3), np.float32(0.25), MODES[(idx + 3) % 7], dom)], kernel_shape=[3, 3])
    h, _ = covering_quant(b, rng, h, probe_of, xs, 5, True, MODES[(idx + 4) % 7], dom, idx == 0)
    h = b.node("Flatten", [h], axis=1)
    h, nout = quantized_head(b, rng, h, probe_of, xs, idx, MODES[(idx + 5) % 7], dom)
    return make(b, f"upsample{idx}", shape, "x", h, [("", 13), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


def random_deconv(rng, idx):
    """A decoder's transposed convolution (Brevitas's QuantConvTranspose2d):
    the input [1, c, 3, 3] quantized; a ConvTranspose of kernel 3 and
    stride 2 (padding 1 and output_padding 1 for idx 0, neither for 1) by
    4-bit weights [c, m, 3, 3], per output channel (axis 1) for idx 1, a
    quantized bias, Relu and a quantizer; Flatten and the quantized head."""
    b = Builder(rng)
    dom = "qonnx.custom_op.general"
    c, m = int(rng.integers(1, 3)), int(rng.integers(2, 4))
    shape = [1, c, 3, 3]
    xs, probe_of, h = sampled_input(b, rng, shape, 13, dom, idx, 6)
    ws = rand_scale(rng, idx == 0, (1, m, 1, 1) if idx == 1 else ())
    W = weight4(b, rng, (c, m, 3, 3), ws, MODES[(idx + 1) % 7], dom)
    bias = b.quant(b.init(rng.normal(0, 0.5, m), "bias"), np.float32(2.0**-4), 8, True, False, MODES[(idx + 2) % 7], domain=dom)
    pad = dict(pads=[1, 1, 1, 1], output_padding=[1, 1]) if idx == 0 else {}
    h = b.node("ConvTranspose", [h, W, bias], kernel_shape=[3, 3], strides=[2, 2], **pad)
    h, _ = covering_quant(b, rng, b.node("Relu", [h]), probe_of, xs, 4, False, MODES[(idx + 3) % 7], dom, idx == 0)
    h = b.node("Flatten", [h], axis=1)
    h, nout = quantized_head(b, rng, h, probe_of, xs, idx, MODES[(idx + 4) % 7], dom)
    return make(b, f"deconv{idx}", shape, "x", h, [("", 13), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


def random_chlast(rng, idx):
    """A channels-last U-Net as Brevitas exports it and QONNX's
    ConvertToChannelsLastAndClean rewrites it (hls4ml's tiny_unet_ch_last):
    no Transpose, Conv and MaxPool of the domain qonnx.custom_op.channels_last
    on [N, H, W, C] (a Conv's weight [O, kH, kW, C/group]). The input
    [1, 4, 4, c] quantized; a separable block (a depthwise 3x3 Conv, a
    quantizer, a pointwise 1x1 Conv with a quantized bias, LeakyRelu of
    alpha 13/128, a quantizer) whose output is the skip; a 2x2 MaxPool; a
    second block (idx 2: a channels-last BatchNormalization instead of the
    pointwise bias); Resize by [1, 2, 2, 1] (asymmetric, floor, an empty
    roi); a quantizer; Concat with the skip along the channels (axis -1);
    a 1x1 Conv and, but for idx 1 (hls4ml's branched model ends in the
    Conv), a quantizer. idx 3 is the 1-D form on [1, 8, c]."""
    b = Builder(rng)
    dom, cl = "qonnx.custom_op.general", "qonnx.custom_op.channels_last"
    one_d = idx == 3
    c = int(rng.integers(2, 4))
    shape = [1, 8, c] if one_d else [1, 4, 4, c]
    k = [3] if one_d else [3, 3]
    ones = [1] if one_d else [1, 1]
    xs, probe_of, h = sampled_input(b, rng, shape, 13, dom, idx, 5)

    def block(h, cin, cout, layer, bn=False):
        dw = weight4(b, rng, [cin] + k + [1], rand_scale(rng, True, (cin,) + (1,) * len(k) + (1,)), MODES[(idx + layer) % 7], dom)
        h = b.node("Conv", [h, dw], domain=cl, kernel_shape=k, pads=[1] * 2 * len(k), strides=ones, dilations=ones, group=cin)
        h, _ = covering_quant(b, rng, h, probe_of, xs, 4, True, MODES[(idx + layer + 1) % 7], dom, True)
        pw = weight4(b, rng, [cout] + ones + [cin], rand_scale(rng, layer % 2 == 0, (cout,) + (1,) * len(k) + (1,)), MODES[(idx + layer + 2) % 7], dom)
        if bn:
            h = b.node("Conv", [h, pw], domain=cl, kernel_shape=ones, pads=[0] * 2 * len(k), strides=ones, dilations=ones, group=1)
            pre = np.stack([partial(probe_of(h), h, v)[0] for v in xs])
            axes = tuple(range(pre.ndim - 1))
            mu, sd = pre.mean(axis=axes), pre.std(axis=axes) + 1e-3
            gamma = rng.uniform(0.5, 1.5, cout) * np.where(rng.integers(0, 4, cout) == 0, -1, 1)
            h = b.node("BatchNormalization", [h, b.init(gamma), b.init(rng.normal(0, 0.3, cout)), b.init(mu), b.init(sd**2)],
                       domain=cl, epsilon=1e-5, momentum=0.9)
        else:
            bias = b.quant(b.init(rng.normal(0, 0.5, cout), "bias"), np.float32(2.0**-4), 8, True, False, MODES[(idx + layer + 3) % 7], domain=dom)
            h = b.node("Conv", [h, pw, bias], domain=cl, kernel_shape=ones, pads=[0] * 2 * len(k), strides=ones, dilations=ones, group=1)
        h = b.node("LeakyRelu", [h], alpha=0.1015625)
        return covering_quant(b, rng, h, probe_of, xs, 4, True, MODES[(idx + layer + 4) % 7], dom, True)[0]

    oc = int(rng.integers(2, 4))
    skip = block(h, c, oc, 0)
    h = b.node("MaxPool", [skip], domain=cl, kernel_shape=[2] * len(k), strides=[2] * len(k), pads=[0] * 2 * len(k), ceil_mode=0)
    h = block(h, oc, oc, 1, bn=idx == 2)
    scales = np.array([1, 2, 1] if one_d else [1, 2, 2, 1], np.float32)
    h = b.node("Resize", [h, b.init(np.zeros(0, np.float32), "roi"), b.init(scales, "scales")],
               coordinate_transformation_mode="asymmetric", mode="nearest", nearest_mode="floor")
    h, _ = covering_quant(b, rng, h, probe_of, xs, 4, True, MODES[(idx + 5) % 7], dom, True)
    h = b.node("Concat", [h, skip], axis=-1)
    nout = 2
    W = weight4(b, rng, [nout] + ones + [2 * oc], np.float32(0.25), MODES[(idx + 6) % 7], dom)
    h = b.node("Conv", [h, W], domain=cl, kernel_shape=ones, pads=[0] * 2 * len(k), strides=ones, dilations=ones, group=1)
    if idx != 1:
        h, _ = covering_quant(b, rng, h, probe_of, xs, 6, True, MODES[idx % 7], dom, True)
    out_shape = shape[:-1] + [nout]
    return make(b, f"chlast{idx}", shape, "x", h, [("", 17), (dom, 1)], 8, out_shape=out_shape), ("fixed<8,3>", (8, 3, True))


def random_strides(rng, idx):
    """Strides that differ between H and W (an audio CNN's, a KWS model's):
    the input [1, c, 7, 8] quantized; a 3x3 Conv of strides (2, 1) and
    padding 1 (idx 0) or (1, 3) unpadded (1) by 4-bit weights, Relu and a
    quantizer; a MaxPool of kernel 2 and strides (1, 2) (idx 0), or an
    AveragePool of kernel 3, strides (2, 1) and padding 1 excluding it (1);
    a quantizer, Flatten and the quantized head."""
    b, dom, c, shape, xs, probe_of, h, oc = cnn_start(rng, idx, 7, 8)
    Wq = weight4(b, rng, (oc, c, 3, 3), rand_scale(rng, idx == 0, (oc, 1, 1, 1)), MODES[(idx + 1) % 7], dom)
    conv = dict(strides=[2, 1], pads=[1, 1, 1, 1]) if idx == 0 else dict(strides=[1, 3])
    h = b.node("Conv", [h, Wq], kernel_shape=[3, 3], **conv)
    h, _ = covering_quant(b, rng, b.node("Relu", [h]), probe_of, xs, 4, False, MODES[(idx + 2) % 7], dom, idx == 0)
    if idx == 0:
        h = b.node("MaxPool", [h], kernel_shape=[2, 2], strides=[1, 2])
    else:
        h = b.node("AveragePool", [h], kernel_shape=[3, 3], strides=[2, 1], pads=[1, 1, 1, 1], count_include_pad=0)
    h, _ = covering_quant(b, rng, h, probe_of, xs, 5, True, MODES[(idx + 3) % 7], dom, True)
    h = b.node("Flatten", [h], axis=1)
    h, nout = quantized_head(b, rng, h, probe_of, xs, idx, MODES[(idx + 4) % 7], dom)
    return make(b, f"strides{idx}", shape, "x", h, [("", 13), (dom, 1)], 8, out_shape=[1, nout]), ("fixed<8,3>", (8, 3, True))


# ---------------------------------------------------------------------------


def check(name, m, xs):
    """The float64 reference and the exact model on every sample; asserts
    they agree; returns (ref, exact rationals, report line)."""
    stop = m.graph.node[-1].op_type == "Softmax"
    last = m.graph.node[-1].op_type
    quantized = last in ("Quant", "BipolarQuant", "Trunc", "FloatQuant")
    refs, logits, exacts, mism, ulps = [], [], [], 0, 0
    for v in xs:
        r = evaluate(m, v, Float64)
        e = evaluate(m, v, Exact, stop_before_softmax=stop)
        rf = evaluate(m, v, Float64, stop_before_softmax=stop)
        refs.append(r)
        logits.append(rf)
        exacts.append(e)
        for a, q in zip(rf.ravel(), e.ravel()):
            if quantized:
                if Fraction(float(a)) != q:
                    mism += 1
            elif float(a) != float(q):
                ulps = max(ulps, abs(int(np.float64(a).view(np.int64)) - int(np.float64(float(q)).view(np.int64))))
                if abs(float(a) - float(q)) > 1e-9 * max(1.0, abs(float(q))):
                    mism += 1
    assert mism == 0, f"{name}: the float64 reference and the exact model disagree on {mism} outputs"
    return np.stack(refs), np.stack(logits) if stop else None, exacts, ulps


def main():
    rng = np.random.default_rng(27)
    builders = [("jet_tagger", jet_tagger), ("unsw_nb15", unsw_nb15), ("tfc_2w2a", lambda r: tfc(r, 2)),
                ("tfc_1w2a", lambda r: tfc(r, 1)), ("kws_mlp", kws)]
    builders += [(f"mlp{i}", (lambda i: lambda r: random_mlp(r, i))(i)) for i in range(10)]
    builders += [(f"cnn{i}", (lambda i: lambda r: random_cnn(r, i))(i)) for i in range(2)]
    builders += [(f"resnet{i}", (lambda i: lambda r: random_resnet(r, i, False))(i)) for i in range(6)]
    builders += [(f"resnet_cnn{i}", (lambda i: lambda r: random_resnet(r, i, True))(i)) for i in range(4)]
    builders += [(f"mobile{i}", (lambda i: lambda r: random_mobile(r, i))(i)) for i in range(8)]
    builders += [(f"gate{i}", (lambda i: lambda r: random_resnet(r, i, False, "Mul"))(i)) for i in range(4)]
    builders += [(f"gate_cnn{i}", (lambda i: lambda r: random_resnet(r, i, True, "Mul"))(i)) for i in range(2)]
    builders += [(f"concat{i}", (lambda i: lambda r: random_concat(r, i, False))(i)) for i in range(4)]
    builders += [(f"concat_cnn{i}", (lambda i: lambda r: random_concat(r, i, True))(i)) for i in range(4)]
    builders += [(f"conv1d{i}", (lambda i: lambda r: random_conv1d(r, i))(i)) for i in range(3)]
    builders += [(f"act{i}", (lambda i: lambda r: random_act(r, i))(i)) for i in range(4)]
    builders += [(f"mobile{i}", (lambda i: lambda r: random_mobile(r, i))(i)) for i in range(8, 10)]  # appended: earlier models keep their draws
    builders += [(f"mobile{i}", (lambda i: lambda r: random_mobile(r, i))(i)) for i in range(10, 12)]
    builders += [("conv1d3", lambda r: random_conv1d(r, 3))]
    builders += [(f"fq{i}", (lambda i: lambda r: random_fq(r, i))(i)) for i in range(4)]
    builders += [(f"curve{i}", (lambda i: lambda r: random_curve(r, i))(i)) for i in range(4)]
    builders += [(f"mobile{i}", (lambda i: lambda r: random_mobile(r, i))(i)) for i in range(12, 14)]
    builders += [("conv1d4", lambda r: random_conv1d(r, 4))]
    builders += [(f"swish{i}", (lambda i: lambda r: random_swish(r, i))(i)) for i in range(4)]
    builders += [(f"keras{i}", (lambda i: lambda r: random_keras(r, i))(i)) for i in range(4)]
    builders += [(f"finn{i}", (lambda i: lambda r: random_finn(r, i))(i)) for i in range(4)]
    builders += [(f"tcn{i}", (lambda i: lambda r: random_tcn(r, i))(i)) for i in range(2)]
    builders += [(f"upsample{i}", (lambda i: lambda r: random_upsample(r, i))(i)) for i in range(2)]
    builders += [(f"deconv{i}", (lambda i: lambda r: random_deconv(r, i))(i)) for i in range(2)]
    builders += [(f"chlast{i}", (lambda i: lambda r: random_chlast(r, i))(i)) for i in range(4)]
    builders += [(f"strides{i}", (lambda i: lambda r: random_strides(r, i))(i)) for i in range(2)]
    meta = {}
    for name, build in builders:
        m, (itype, (w, i, signed)) = build(np.random.default_rng(100 + len(meta)))
        LITERAL.update(differ=0, values=0)
        m.graph.name = name
        shape = [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim]
        xs = grid(rng, tuple(shape), w, i, signed, 16)
        ref, logits, exact, ulps = check(name, m, xs)
        assert np.ptp(ref.reshape(len(ref), -1), axis=0).max() > 0, f"{name}: every output is the same on every sample"
        onnx.save(m, os.path.join(HERE, name + ".onnx"))
        np.save(os.path.join(HERE, name + ".in.npy"), xs)
        np.save(os.path.join(HERE, name + ".ref.npy"), ref)
        if logits is not None:
            np.save(os.path.join(HERE, name + ".logits.npy"), logits)
        with open(os.path.join(HERE, name + ".exact.txt"), "w") as f:
            for e in exact:
                f.write(" ".join(f"{q.numerator}/{q.denominator}" for q in e.ravel()) + "\n")
        meta[name] = {"input_type": itype, "drop_final_softmax": m.graph.node[-1].op_type == "Softmax",
                      "output_ulps": 4 if m.graph.node[-1].op_type in ("Sigmoid", "Tanh") else 0,
                      "samples": len(xs), "float_vs_exact_max_ulps": ulps,
                      "literal_qonnx_differs": f"{LITERAL['differ']} of {LITERAL['values']} quantized values",
                      "ops": sorted({n.op_type for n in m.graph.node})}
        print(f"{name}: {len(m.graph.node)} nodes, input {itype}, float64 vs exact: max {ulps} ulp apart on unquantized outputs;"
              f" QONNX's literal int_quant differs from the exact decision on {LITERAL['differ']} of {LITERAL['values']} values")
    with open(os.path.join(HERE, "models.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
