#!/usr/bin/python3
"""Small QONNX models with the operator patterns, opsets and domains of the
QONNX model zoo's MLPs (random weights; the zoo's files are not vendored),
and one model per unsupported form, for TestQONNXModels.

Writes NAME.onnx and NAME.want.json beside this file: the node kinds the
import must give (counts), substrings of the printed graph, the payload
entries of the quantizers and batch norms (shape and float64 values), or the
error text; for a model that imports, NAME.in0.npy (a random input) and
NAME.out0.npy (ref.py's float64 reference: QONNX's quantizers, ONNX's
formulas). Run: /usr/bin/python3 gen.py (deterministic: a fixed seed).
"""
import json
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

import ref

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(27)
FINN, QONNX, BREVITAS = "finn.custom_op.general", "qonnx.custom_op.general", "onnx.brevitas"


class Model:
    def __init__(self, name, opset, x_shape, domains=()):
        self.name, self.opset, self.x_shape = name, opset, x_shape
        self.domains = domains
        self.nodes, self.inits, self.payload = [], [], {}
        self.count = 0

    def init(self, name, a, dtype=np.float32):
        a = np.asarray(a, dtype=dtype)
        self.inits.append(numpy_helper.from_array(a, name))
        return name

    def node(self, op, ins, domain="", name=None, **attrs):
        self.count += 1
        name = name or "%s_%d" % (op, self.count)
        out = name + "_out"
        self.nodes.append(helper.make_node(op, ins, [out], name=name, domain=domain, **attrs))
        return out

    def expect(self, key, a):
        a = np.asarray(a, dtype=np.float64)
        self.payload[key] = {"shape": list(a.shape), "data": [float(v) for v in a.ravel()]}

    def quant(self, x, scale, zp, bits, domain, signed=1, narrow=0, rounding="ROUND", name=None):
        self.count += 1
        name = name or "Quant_%d" % self.count
        ins = [x, self.init(name + "_s", scale), self.init(name + "_z", zp), self.init(name + "_b", bits)]
        self.expect(name + ".scale", np.float32(scale))
        self.expect(name + ".zero_point", np.float32(zp))
        return self.node("Quant", ins, domain, name=name, signed=signed, narrow=narrow, rounding_mode=rounding)

    def bipolar(self, x, scale, domain):
        self.count += 1
        name = "BipolarQuant_%d" % self.count
        self.expect(name + ".scale", np.float32(scale))
        return self.node("BipolarQuant", [x, self.init(name + "_s", scale)], domain, name=name)

    def batchnorm(self, x, c, **attrs):
        self.count += 1
        name = "BatchNormalization_%d" % self.count
        g = rng.normal(size=c).astype(np.float32)
        g[0] = 0  # a zero gamma
        b, mean = rng.normal(size=c).astype(np.float32), rng.normal(size=c).astype(np.float32)
        var = rng.uniform(0.1, 2, size=c).astype(np.float32)
        eps = np.float32(1e-5)
        ins = [x] + [self.init(name + s, v) for s, v in (("_g", g), ("_b", b), ("_m", mean), ("_v", var))]
        self.expect(name + ".mean", mean.reshape(1, c))
        self.expect(name + ".a", (g.astype(np.float64) / np.sqrt(var.astype(np.float64) + np.float64(eps))).reshape(1, c))
        self.expect(name + ".beta", b.reshape(1, c))
        return self.node("BatchNormalization", ins, name=name, epsilon=1e-5, momentum=0.9, **attrs)

    def write(self, out, out_shape, kinds=None, contains=(), error=None, out_dims=None):
        dims = out_dims if out_dims is not None else out_shape
        g = helper.make_graph(self.nodes, self.name,
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, self.x_shape)],
                              [helper.make_tensor_value_info(out, TensorProto.FLOAT, dims)], self.inits)
        opsets = [helper.make_opsetid("", self.opset)] + [helper.make_opsetid(d, v) for d, v in self.domains]
        m = helper.make_model(g, opset_imports=opsets, producer_name="otir gen.py")
        m.ir_version = 7
        onnx.save(m, os.path.join(HERE, self.name + ".onnx"))
        want = {"error": error} if error else {"kinds": kinds, "contains": list(contains), "payload": self.payload}
        if not error:
            x = rng.integers(-64, 64, size=self.x_shape) / 16.0
            np.save(os.path.join(HERE, self.name + ".in0.npy"), x)
            np.save(os.path.join(HERE, self.name + ".out0.npy"), ref.run(m, x))
        with open(os.path.join(HERE, self.name + ".want.json"), "w") as f:
            json.dump(want, f, indent=1, sort_keys=True)
            f.write("\n")


def w(*shape):
    return rng.integers(-2, 2, size=shape).astype(np.float32) * np.float32(0.5)


def jet():
    """hls4ml's QKeras jet tagger: opset 9, finn.custom_op.general, weights
    [in, out] and biases each through a Quant, MatMul, Add, Relu, unsigned
    activation Quant, a final Softmax with axis 1."""
    m = Model("jet", 9, [1, 16])
    x, sizes = "x", [16, 8, 8, 5]
    for i in range(3):
        wq = m.quant(m.init("W%d" % i, w(sizes[i], sizes[i + 1])), 0.03125, 0, 6, FINN)
        bq = m.quant(m.init("b%d" % i, w(sizes[i + 1])), 0.03125, 0, 6, FINN)
        x = m.node("Add", [m.node("MatMul", [x, wq]), bq])
        if i < 2:
            x = m.quant(m.node("Relu", [x]), 0.015625, 0, 6, FINN, signed=0)
    y = m.node("Softmax", [x], axis=1)
    m.write(y, [1, 5], {"nn.quant": 8, "nn.matmul": 3, "nn.add": 3, "nn.relu": 2, "nn.softmax": 1, "nn.broadcast_to": 3},
            ['nn.quant %0 {bits = 6, narrow = false, params = "Quant_1", rounding = "ROUND", signed = true} : (tensor<16x8xf64>)',
             'params = "Quant_8", rounding = "ROUND", signed = false', "nn.softmax %", "{axis = 1}"])


def tfc(binary):
    """FINN's TFC_2W2A (binary: TFC_1W2A): opset 9, onnx.brevitas, the
    flattening by Shape/Gather/Unsqueeze/Concat/Reshape, Mul/Sub of the
    input, weights [out, in] through Quant (BipolarQuant) and Transpose,
    BatchNormalization, and the Sub/Pow/Div/Mul/Add tail."""
    name = "tfc_1w2a" if binary else "tfc_2w2a"
    m = Model(name, 9, [1, 1, 4, 4])
    s = m.node("Shape", ["x"])
    g = m.node("Gather", [s, m.init("zero", np.int64(0), np.int64)], axis=0)
    u = m.node("Unsqueeze", [g], axes=[0])
    c = m.node("Concat", [u, m.init("minus_one", [-1], np.int64)], axis=0)
    x = m.node("Reshape", ["x", c])
    x = m.node("Sub", [m.node("Mul", [x, m.init("two", 2.0)]), m.init("one", [1.0])])
    x = m.quant(x, 1.0, 0, 2, BREVITAS, narrow=1)
    sizes = [16, 8, 8, 4]
    for i in range(3):
        wt = m.init("W%d" % i, w(sizes[i + 1], sizes[i]))
        wq = m.bipolar(wt, 1.0, BREVITAS) if binary else m.quant(wt, 1.0, 0, 2, BREVITAS, narrow=1)
        x = m.node("MatMul", [x, m.node("Transpose", [wq], perm=[1, 0])])
        if i < 2:
            x = m.quant(m.batchnorm(x, sizes[i + 1]), 1.0, 0, 2, BREVITAS, narrow=1)
    x = m.node("Sub", [x, m.init("tail_mean", [1.2073264])])
    d = m.node("Pow", [m.init("tail_var", [346.1243]), m.init("half", np.float32(0.5))])
    x = m.node("Div", [x, d])
    x = m.node("Mul", [x, m.init("tail_w", [0.819624])])
    y = m.node("Add", [x, m.init("tail_b", [-1.2115092])])
    q = {"nn.quant": 3, "nn.bipolar_quant": 3} if binary else {"nn.quant": 6}
    # nn.sub: the input's, one per batch norm, the tail's; nn.broadcast_to:
    # the constants of the input's Mul and Sub and of the tail's four nodes.
    m.write(y, [1, 4], dict(q, **{"nn.permute": 3, "nn.matmul": 3, "nn.inv": 1, "nn.reshape": 1, "nn.sub": 4, "nn.mul": 5, "nn.add": 3,
                                  "nn.broadcast_to": 6}),
            ["nn.reshape %arg0 : (tensor<1x1x4x4xf64>) -> tensor<1x16xf64>", "nn.inv %", "perm = [1, 0]"])


def kws():
    """The GSCV2 kwsmlp_w3a3: opset 11, onnx.brevitas, a Quant of the
    input, Flatten, per-channel [out, 1] weight scales, BatchNormalization,
    Relu, unsigned activation Quants."""
    m = Model("kws", 11, [1, 1, 2, 5])
    x = m.node("Flatten", [m.quant("x", 0.8298504, 0, 8, BREVITAS, narrow=1)], axis=1)
    sizes = [10, 8, 4]
    for i in range(2):
        scale = rng.uniform(0.01, 0.1, size=(sizes[i + 1], 1)).astype(np.float32)
        wq = m.quant(m.init("W%d" % i, w(sizes[i + 1], sizes[i])), scale, 0, 3, BREVITAS, narrow=1)
        x = m.node("MatMul", [x, m.node("Transpose", [wq], perm=[1, 0])])
        if i < 1:
            x = m.quant(m.node("Relu", [m.batchnorm(x, sizes[i + 1])]), 0.14285715, 0, 3, BREVITAS, signed=0)
    m.write(x, [1, 4], {"nn.quant": 4, "nn.permute": 2, "nn.matmul": 2, "nn.reshape": 1, "nn.relu": 1, "nn.sub": 1, "nn.mul": 1, "nn.add": 1},
            ["nn.quant %arg0 {bits = 8, narrow = true"])


def unsw():
    """UNSW-NB15 MLP w2a2: opset 14 importing onnx.brevitas 1, Add/Div of
    the input, Gemm with transB of a Quant weight and a bias,
    BatchNormalization (training_mode=0), Relu, Quant, a final BipolarQuant
    and an output of unknown dimensions."""
    m = Model("unsw", 14, [1, 12], domains=[(BREVITAS, 1)])
    x = m.node("Div", [m.node("Add", ["x", m.init("one", [1.0])]), m.init("two", np.float32(2.0))])
    sizes = [12, 8, 1]
    for i in range(2):
        wq = m.quant(m.init("W%d" % i, w(sizes[i + 1], sizes[i])), [27.768454, 0.77421844][i], 0, 2, BREVITAS, narrow=1)
        x = m.node("Gemm", [x, wq, m.init("b%d" % i, w(sizes[i + 1]))], alpha=1.0, beta=1.0, transB=1)
        if i < 1:
            x = m.quant(m.node("Relu", [m.batchnorm(x, sizes[i + 1], training_mode=0)]), 0.08842458, 0, 8, BREVITAS, signed=0)
    y = m.bipolar(x, 1.0, BREVITAS)
    # nn.mul: the Div by 2 (by 0.5, exact) and the batch norm's.
    m.write(y, [1, 1], {"nn.quant": 3, "nn.bipolar_quant": 1, "nn.permute": 2, "nn.matmul": 2, "nn.add": 4, "nn.mul": 2, "nn.sub": 1, "nn.relu": 1,
                        "nn.broadcast_to": 4},
            ['nn.bipolar_quant %', 'params = "BipolarQuant_'], out_dims=["d0", "d1"])


def trunc():
    """QONNX's Trunc v1 (five inputs) and v2 (six, an output scale), in
    qonnx.custom_op.general, after an avg-pool-like sum."""
    m = Model("trunc", 13, [1, 4], domains=[(QONNX, 2)])
    x = m.quant("x", 0.0625, 0, 8, QONNX)
    names = []
    for v, ins in ((1, [0.0625, 0, 8, 6]), (2, [0.0625, 0, 8, 0.25, 4])):
        m.count += 1
        name = "Trunc_%d" % m.count
        keys = ["_s", "_z", "_ib", "_os", "_ob"] if v == 2 else ["_s", "_z", "_ib", "_ob"]
        tin = [x] + [m.init(name + k, val) for k, val in zip(keys, ins)]
        m.expect(name + ".scale", np.float32(0.0625))
        m.expect(name + ".zero_point", np.float32(0))
        if v == 2:
            m.expect(name + ".output_scale", np.float32(0.25))
        attrs = {"rounding_mode": "FLOOR"} if v == 1 else {"rounding_mode": "round", "signed": 1, "narrow": 0}
        x = m.node("Trunc", tin, QONNX, name=name, **attrs)
        names.append(name)
    m.write(x, [1, 4], {"nn.quant": 1, "nn.trunc": 2},
            ['nn.trunc %0 {in_bits = 8, narrow = false, out_bits = 6, params = "Trunc_3", rounding = "FLOOR", signed = true, version = 1}',
             'nn.trunc %1 {in_bits = 8, narrow = false, out_bits = 4, params = "Trunc_5", rounding = "ROUND", signed = true, version = 2}'])


def cnn():
    """A small QONNX CNN (Brevitas-like): an 8-bit input Quant, a Conv
    3x3 padding 1 whose weight is a Quant with per-output-channel float32
    scales [4, 1, 1, 1] and whose bias is a Quant, Relu, an unsigned
    activation Quant, MaxPool 2x2, a Conv 3x3 stride 2 with a per-tensor
    power-of-two weight Quant and no bias, Flatten, MatMul by a transposed
    Quant weight."""
    m = Model("cnn", 13, [1, 1, 6, 6], domains=[(QONNX, 1)])
    x = m.quant("x", 0.0625, 0, 8, QONNX)
    scale = rng.uniform(0.05, 0.2, size=(4, 1, 1, 1)).astype(np.float32)
    m.w0 = (rng.normal(size=(4, 1, 3, 3)) * 0.3).astype(np.float32)
    wq = m.quant(m.init("W0", m.w0), scale, 0, 4, QONNX, narrow=1, name="QW0")
    bq = m.quant(m.init("b0", rng.normal(size=4) * 0.2), 0.0078125, 0, 8, QONNX, name="Qb0")
    x = m.node("Conv", [x, wq, bq], name="Conv0", kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1])
    x = m.quant(m.node("Relu", [x]), 0.25, 0, 4, QONNX, signed=0)
    x = m.node("MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2])
    wq = m.quant(m.init("W1", w(4, 4, 3, 3)), 0.5, 0, 3, QONNX, name="QW1")
    x = m.node("Conv", [x, wq], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2])
    x = m.quant(x, 0.125, 0, 6, QONNX, rounding="FLOOR")
    x = m.node("Flatten", [x], axis=1)
    wq = m.quant(m.init("W2", w(3, 16)), 0.375, 0, 3, QONNX)
    y = m.node("MatMul", [x, m.node("Transpose", [wq], perm=[1, 0])])
    # The Convs' quantizers fold: their weights are the integer codes, each
    # output channel's scale multiplied after the Conv, the bias added.
    for q in ("QW0", "Qb0", "QW1"):
        del m.payload[q + ".scale"], m.payload[q + ".zero_point"]
    codes = np.round(np.clip(m.w0 / scale, -7, 7))
    g = np.gcd.reduce(np.abs(codes).astype(np.int64).reshape(4, -1), axis=1)
    m.expect("Conv0.weight", codes / g.reshape(4, 1, 1, 1))
    m.expect("Conv0.weight_scale", scale.astype(np.float64).reshape(1, 4, 1, 1) * g.reshape(1, 4, 1, 1))
    m.write(y, [1, 3], {"nn.quant": 4, "nn.conv2d": 2, "nn.relu": 1, "nn.max_pool2d": 1, "nn.reshape": 1, "nn.permute": 1, "nn.matmul": 1,
                        "nn.mul": 2, "nn.add": 1, "nn.broadcast_to": 3},
            ['nn.conv2d %0 {kernel = [3, 3], padding = 1, params = "Conv0", stride = 1}'])


def unsupported():
    """One model per unsupported form, each an error naming the node."""
    cases = {}

    def case(name, build, error):
        m = Model(name, 13, [1, 4])
        m.write(build(m), [1, 4], error=error)

    def floatquant(bias=7.0, **attrs):
        def build(m):
            return m.node("FloatQuant", ["x", m.init("s", 1.0), m.init("e", 4.0), m.init("mnt", 3.0), m.init("b", bias), m.init("mx", 240.0)],
                          QONNX, name="FQ", **attrs)
        return build

    def multithreshold(m):
        return m.node("MultiThreshold", ["x", m.init("t", np.zeros((3, 3)))], QONNX, name="MT", out_dtype="UINT2")

    def quant_with(scale="s", bits="b", bits_value=4.0, signed=1, scale_value=0.5, zero_point=0.0):
        def build(m):
            m.init("s", scale_value)
            m.init("z", zero_point)
            m.init("b", bits_value)
            attrs = {"narrow": 0, "rounding_mode": "ROUND"}
            if signed is not None:
                attrs["signed"] = signed
            return m.node("Quant", ["x", scale, "z", bits], FINN, name="Q", **attrs)
        return build

    def relu_bits(m):  # a bit width computed from the input
        m.init("s", 0.5)
        m.init("z", 0.0)
        r = m.node("Relu", ["x"], name="R")
        return m.node("Quant", ["x", "s", "z", r], FINN, name="Q", signed=1, narrow=0)

    def bn_training(m):
        return m.node("BatchNormalization", ["x"] + [m.init(n, np.ones(4)) for n in ("g", "bb", "mu", "var")], name="BN", training_mode=1)

    def trunc_wide(m):
        ins = ["x"] + [m.init(n, v) for n, v in (("s", 1.0), ("z", 0.0), ("ib", 4.0), ("ob", 8.0))]
        return m.node("Trunc", ins, QONNX, name="T")

    case("floatquant_nonsaturating", floatquant(saturation=0, has_inf=1),
         "node 'FQ' (FloatQuant): saturation=0 (overflows become infinities or NaN) is not supported: only saturating FloatQuant")
    case("floatquant_bias", floatquant(bias=300.0), "node 'FQ' (FloatQuant): the exponent bias 300 must be an integer in [-256, 256]")
    case("multithreshold", multithreshold, "node 'MT' (MultiThreshold): the thresholds of shape [3, 3] must be [C, T] with C = 1 or the input's 4 channels (axis 1 of [1, 4])")
    case("quant_dynamic_scale", quant_with(scale="x"), "node 'Q' (Quant): the scale (input 'x') must be a constant")
    case("quant_fractional_bits", quant_with(bits_value=2.5), "node 'Q' (Quant): the bit width 2.5 is not an integer")
    case("quant_wide_bits", quant_with(bits_value=33), "node 'Q' (Quant): the bit width 33 must lie in [1, 32]")
    case("quant_zero_bits", quant_with(bits_value=0), "node 'Q' (Quant): the bit width 0 must lie in [1, 32]")
    case("quant_dynamic_bits", relu_bits, "node 'Q' (Quant): the bit width (input 'R_out') must be a constant")
    case("quant_no_signed", quant_with(signed=None), "node 'Q' (Quant): the attribute 'signed' is missing")
    case("quant_zero_scale", quant_with(scale_value=0), "node 'Q' (Quant): the scale, element 0: a scale must be positive and finite, but got 0")
    case("quant_negative_scale", quant_with(scale_value=[0.5, -1, 1, 1]), "node 'Q' (Quant): the scale, element 1: a scale must be positive")
    case("quant_empty_scale", quant_with(scale_value=np.zeros(0)), "node 'Q' (Quant): the scale holds no values")
    case("quant_scale_shape", quant_with(scale_value=[0.5, 1, 1]), "node 'Q' (Quant): the scale of shape [3] does not broadcast to the input's shape [1, 4]")
    case("quant_fractional_zero_point", quant_with(zero_point=0.5), "node 'Q' (Quant): the zero point, element 0: a zero point must be a finite integer, but got 0.5")
    case("bn_training", bn_training, "node 'BN' (BatchNormalization): training_mode=1 is not supported")
    case("trunc_widening", trunc_wide, "node 'T' (Trunc): the output bit width 8 exceeds the input bit width 4")


jet()
tfc(False)
tfc(True)
kws()
unsw()
trunc()
cnn()
unsupported()
