#!/usr/bin/python3
"""Writes the ONNX models of otir's ONNX importer tests (docs/nn.md).

Run with Debian's python3 (torch 1.13, onnx 1.12, numpy):

    /usr/bin/python3 tests/onnx/Inputs/gen.py

Deterministic (fixed seeds). For each model NAME it writes NAME.onnx
(torch.onnx.export of the float64 model, so that initializers are float64),
NAME.in0.npy (the float64 input) and NAME.out0.npy (PyTorch's float64 output
on it). It also writes small hand-made files for the error tests
(bad-*.onnx, with onnx.helper).
"""
import os

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return F.softmax(self.fc2(torch.relu(self.fc1(x))), dim=1)


class CNN(nn.Module):
    """conv+relu+maxpool+avgpool with padding+flatten+linear."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.avg = nn.AvgPool2d(3, stride=1, padding=1)
        self.fc = nn.Linear(4 * 4 * 4, 5)

    def forward(self, x):
        x = self.avg(self.pool(torch.relu(self.conv(x))))
        return self.fc(torch.flatten(x, 1))


class PadConv(nn.Module):
    """An explicit F.pad before a convolution and an average pool (Pad nodes
    folded into the window), max pool with padding, tanh and sigmoid."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 3, 3, stride=2)

    def forward(self, x):
        y = self.conv(F.pad(x, (1, 1, 1, 1)))
        y = F.avg_pool2d(F.pad(torch.tanh(y), (1, 1, 1, 1)), 2, stride=1)
        return torch.sigmoid(F.max_pool2d(y, 3, stride=2, padding=1))


class Attention(nn.Module):
    """One self-attention block: q/k/v linears, q k^T scaled by a division
    (by 4 = sqrt(16), a power of two), softmax, residual, layer norm."""

    def __init__(self, d=16):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.o = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)
        self.scale = float(d) ** 0.5

    def forward(self, x):
        q, k, v = self.q(x), self.k(x), self.v(x)
        a = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) / self.scale, dim=-1)
        return self.norm(x + self.o(torch.matmul(a, v)))


class Misc(nn.Module):
    """The other operators: Gemm with alpha/beta (addmm), Sub, Mul, Div by a
    tensor and by a constant that is not a power of two, Pow 2, Sqrt,
    ReduceMean and ReduceSum (keepdim and not), Transpose, Reshape, Concat,
    broadcasting."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(4, 6))
        self.c = nn.Parameter(torch.randn(6))

    def forward(self, x):
        g = torch.addmm(self.c, x, self.w, beta=0.5, alpha=2.0)  # [3, 6]
        s = g - g.mean(dim=1, keepdim=True)
        d = s / (s.pow(2).sum(dim=0) + 1.0).sqrt()
        e = torch.cat([d, d * 3.0, d / 3.0], dim=0)  # [9, 6]
        t = e.transpose(0, 1).reshape(2, 27)
        return t - t.sum(dim=1, keepdim=True) / 7.0 + x.mean()


def save(name, model, x, opset=13):
    torch.manual_seed(0)
    model.eval()
    with torch.no_grad():
        y = model(x)
    path = os.path.join(HERE, name + ".onnx")
    torch.onnx.export(model, (x,), path, opset_version=opset,
                      input_names=["x"], output_names=["y"])
    np.save(os.path.join(HERE, name + ".in0.npy"), x.numpy())
    np.save(os.path.join(HERE, name + ".out0.npy"), y.numpy())
    print(name, os.path.getsize(path), "bytes:",
          " ".join(n.op_type for n in onnx.load(path).graph.node))


def models():
    torch.manual_seed(1)
    save("mlp", MLP().double(), torch.randn(4, 6, dtype=torch.float64))
    torch.manual_seed(2)
    save("cnn", CNN().double(), torch.randn(2, 2, 8, 8, dtype=torch.float64))
    torch.manual_seed(3)
    save("padconv", PadConv().double(), torch.randn(1, 1, 9, 9, dtype=torch.float64))
    torch.manual_seed(4)
    att = Attention().double()
    x = torch.randn(2, 5, 16, dtype=torch.float64)
    save("attention13", att, x, opset=13)
    save("attention17", att, x, opset=17)
    torch.manual_seed(5)
    save("misc", Misc().double(), torch.randn(3, 4, dtype=torch.float64))
    save_float32("cnn32", CNN, (2, 2, 8, 8), seed=6)
    # The opsets between (the exporter writes the same operators for these
    # models in 14 to 16).
    torch.manual_seed(5)
    save("misc15", Misc().double(), torch.randn(3, 4, dtype=torch.float64), opset=15)
    torch.manual_seed(3)
    save("padconv16", PadConv().double(), torch.randn(1, 1, 9, 9, dtype=torch.float64), opset=16)


def save_float32(name, cls, shape, seed):
    """A float32 export (initializers float32, as most models are); the
    expected output is PyTorch's in float64 on the float32 weights and
    input, which is what the importer (float64 graphs) computes."""
    torch.manual_seed(seed)
    model = cls().eval()
    x = torch.randn(*shape)
    path = os.path.join(HERE, name + ".onnx")
    torch.onnx.export(model, (x,), path, opset_version=13, input_names=["x"], output_names=["y"])
    with torch.no_grad():
        y = model.double()(x.double())
    np.save(os.path.join(HERE, name + ".in0.npy"), x.numpy())
    np.save(os.path.join(HERE, name + ".out0.npy"), y.numpy())
    print(name, os.path.getsize(path), "bytes (float32)")


def helper_ops():
    """A model written with onnx.helper for the operators PyTorch's exporter
    did not write above (Identity, Neg, Abs, Exp, Log, Reciprocal, Sin, Cos,
    Max, Min, Squeeze, Unsqueeze, MatMul of vectors and of broadcast
    batches, Gemm with transA, Softmax on axis 0, ReduceSum of two axes
    without keepdims), with several outputs; the expected values are
    NumPy's, in float64."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 3, 4))
    w = rng.standard_normal(4)
    v = rng.standard_normal(3)
    y = rng.standard_normal((1, 4, 5))
    g = rng.standard_normal((4, 2))
    f64 = TensorProto.DOUBLE
    inits = [helper.make_tensor(n, f64, a.shape, a.ravel().tolist()) for n, a in
             [("w", w), ("v", v), ("y", y), ("g", g), ("one", np.array(1.0))]]
    inits += [helper.make_tensor("ax0", TensorProto.INT64, [1], [0]),
              helper.make_tensor("ax02", TensorProto.INT64, [2], [0, 2]),
              helper.make_tensor("shape46", TensorProto.INT64, [2], [4, 6])]
    N = helper.make_node
    nodes = [
        N("Identity", ["x"], ["a"], name="Identity_0"),
        N("Neg", ["a"], ["b"], name="Neg_1"),
        N("Max", ["x", "b"], ["mx"], name="Max_2"),
        N("Min", ["x", "b"], ["mn"], name="Min_3"),
        N("Abs", ["x"], ["ab"], name="Abs_4"),
        N("Add", ["ab", "one"], ["ab1"], name="Add_5"),
        N("Log", ["ab1"], ["lg"], name="Log_6"),
        N("Reciprocal", ["ab1"], ["rc"], name="Reciprocal_7"),
        N("Exp", ["x"], ["ex"], name="Exp_8"),
        N("Sin", ["ex"], ["sn"], name="Sin_9"),
        N("Cos", ["sn"], ["cs"], name="Cos_10"),
        N("Sub", ["mx", "mn"], ["d1"], name="Sub_11"),
        N("Mul", ["d1", "lg"], ["d2"], name="Mul_12"),
        N("Add", ["d2", "rc"], ["d3"], name="Add_13"),
        N("Add", ["d3", "cs"], ["d4"], name="Add_14"),
        N("Unsqueeze", ["d4", "ax0"], ["u"], name="Unsqueeze_15"),
        N("Squeeze", ["u", "ax0"], ["s"], name="Squeeze_16"),
        N("MatMul", ["s", "w"], ["m1"], name="MatMul_17"),        # [2,3,4]·[4] -> [2,3]
        N("MatMul", ["v", "s"], ["m2"], name="MatMul_18"),        # [3]·[2,3,4] -> [2,4]
        N("MatMul", ["s", "y"], ["m3"], name="MatMul_19"),        # [2,3,4]·[1,4,5] -> [2,3,5]
        N("Reshape", ["s", "shape46"], ["r"], name="Reshape_20"),
        N("Gemm", ["r", "g"], ["gm"], name="Gemm_21", transA=1, alpha=0.5),  # [4,6]ᵀ·[4,2] -> [6,2]
        N("Softmax", ["m3"], ["sm"], name="Softmax_22", axis=0),
        N("ReduceSum", ["sm", "ax02"], ["rs"], name="ReduceSum_23", keepdims=0),
    ]
    outs = ["m1", "m2", "gm", "rs"]
    # NumPy's values.
    b = -x
    d4 = (np.maximum(x, b) - np.minimum(x, b)) * np.log(np.abs(x) + 1) + 1 / (np.abs(x) + 1) + np.cos(np.sin(np.exp(x)))
    m1, m2, m3 = d4 @ w, v @ d4, d4 @ y
    gm = 0.5 * (d4.reshape(4, 6).T @ g)
    e = np.exp(m3 - m3.max(axis=0))
    rs = (e / e.sum(axis=0)).sum(axis=(0, 2))
    return nodes, inits, x, dict(m1=m1, m2=m2, gm=gm, rs=rs), outs


def helper_model():
    nodes, inits, x, values, outs = helper_ops()
    f64 = TensorProto.DOUBLE
    g = helper.make_graph(nodes, "ops", [helper.make_tensor_value_info("x", f64, x.shape)],
                          [helper.make_tensor_value_info(o, f64, values[o].shape) for o in outs], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(m)
    with open(os.path.join(HERE, "ops.onnx"), "wb") as f:
        f.write(m.SerializeToString())
    np.save(os.path.join(HERE, "ops.in0.npy"), x)
    for i, o in enumerate(outs):
        np.save(os.path.join(HERE, "ops.out%d.npy" % i), values[o])


def bad(name, nodes, inputs, outputs, initializers=()):
    g = helper.make_graph(nodes, name, inputs, outputs, list(initializers))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    with open(os.path.join(HERE, "bad-" + name + ".onnx"), "wb") as f:
        f.write(m.SerializeToString())


def errors():
    f64 = TensorProto.DOUBLE
    x = helper.make_tensor_value_info("x", f64, [1, 4, 5, 5])
    bad("unsupported-op", [helper.make_node("Erf", ["x"], ["y"], name="Erf_0")],
        [x], [helper.make_tensor_value_info("y", f64, [1, 4, 5, 5])])
    w = helper.make_tensor("w", f64, [4, 2, 3, 3], np.zeros(72).tolist())
    bad("conv-group", [helper.make_node("Conv", ["x", "w"], ["y"], name="Conv_3", group=3)],
        [x], [helper.make_tensor_value_info("y", f64, [1, 4, 3, 3])], [w])
    bad("dynamic-shape", [helper.make_node("Relu", ["x"], ["y"], name="Relu_0")],
        [helper.make_tensor_value_info("x", f64, ["N", 4])],
        [helper.make_tensor_value_info("y", f64, ["N", 4])])
    huge = TensorProto(name="k", data_type=f64, dims=[1 << 20, 1 << 20])  # no data
    bad("huge-tensor", [helper.make_node("Add", ["x", "k"], ["y"], name="Add_0")],
        [x], [helper.make_tensor_value_info("y", f64, [1, 4, 5, 5])], [huge])
    with open(os.path.join(HERE, "mlp.onnx"), "rb") as f:
        data = f.read()
    with open(os.path.join(HERE, "bad-truncated.onnx"), "wb") as f:
        f.write(data[: len(data) // 2])
    with open(os.path.join(HERE, "bad-not-onnx.onnx"), "wb") as f:
        f.write(b"this is not an ONNX model\n")


if __name__ == "__main__":
    models()
    helper_model()
    errors()
