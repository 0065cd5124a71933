#!/usr/bin/python3
"""Golden data for otir's nn evaluator (backend/nneval), computed by PyTorch.

For each case NAME this writes, next to this script:
  NAME.mlir        the graph (one nn.graph @NAME)
  NAME.npz         its inputs in0, in1, ... and PyTorch's outputs out0, ... (float64)
  NAME.params.npz  its payload (when a node reads one), as numpy.savez writes a state_dict

Expected values come from PyTorch 1.13 in float64 (torch.float64 tensors on the CPU), never
from otir. The random kinds have no PyTorch counterpart (TorchLean's SplitMix64 generator,
nn-graph-ops.md §3.6): their expected values come from the generator written out below in
Python integers. Run:  /usr/bin/python3 tests/nn/Inputs/golden/gen.py (python3 with torch 1.13 and numpy)   (deterministic: torch.manual_seed(0)).
The Go tests (backend/nneval/golden_test.go) read the files and need no Python.
"""
import os
import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
HERE = os.path.dirname(os.path.abspath(__file__))


def ty(shape):
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f64>"


def rnd(*shape, scale=1.0):
    return (torch.rand(*shape) * 2 - 1) * scale


class Case:
    def __init__(self, name):
        self.name, self.args, self.ins, self.lines, self.params, self.n = name, [], [], [], {}, 0

    def arg(self, t):
        a = f"%x{len(self.args)}"
        self.args.append(f"{a}: {ty(t.shape)}")
        self.ins.append(t)
        return (a, tuple(t.shape))

    def node(self, kind, operands, out_shape, attrs=""):
        r = f"%v{self.n}"
        self.n += 1
        ops = ", ".join(o[0] for o in operands)
        tys = ", ".join(ty(o[1]) for o in operands)
        attrs = f" {{{attrs}}}" if attrs else ""
        sp = " " if ops else ""
        self.lines.append(f"  {r} = nn.{kind}{sp}{ops}{attrs} : ({tys}) -> {ty(out_shape)}")
        return (r, tuple(out_shape))

    def write(self, outs, expected):
        res = ", ".join(ty(o[1]) for o in outs)
        if len(outs) > 1:
            res = f"({res})"
        text = f"nn.graph @{self.name}({', '.join(self.args)}) -> {res} {{\n"
        text += "\n".join(self.lines) + "\n"
        text += f"  nn.return {', '.join(o[0] for o in outs)} : {', '.join(ty(o[1]) for o in outs)}\n}}\n"
        with open(os.path.join(HERE, self.name + ".mlir"), "w") as f:
            f.write(text)
        io = {f"in{i}": t.detach().numpy() for i, t in enumerate(self.ins)}
        for i, e in enumerate(expected):
            e = torch.as_tensor(e, dtype=torch.float64)
            assert tuple(e.shape) == outs[i][1], (self.name, e.shape, outs[i][1])
            io[f"out{i}"] = e.detach().numpy()
        np.savez(os.path.join(HERE, self.name + ".npz"), **io)
        if self.params:
            np.savez(os.path.join(HERE, self.name + ".params.npz"),
                     **{k: v.detach().numpy() for k, v in self.params.items()})


def unary(name, kind, fn, x):
    c = Case(name)
    a = c.arg(x)
    c.write([c.node(kind, [a], x.shape)], [fn(x)])


def binary(name, kind, fn, x, y):
    c = Case(name)
    a, b = c.arg(x), c.arg(y)
    c.write([c.node(kind, [a, b], x.shape)], [fn(x, y)])


inf, nan = float("inf"), float("nan")

# Element-wise binary kinds.
x, y = rnd(3, 4, scale=3), rnd(3, 4, scale=3)
x[0, 0], y[0, 1] = inf, -inf
binary("add", "add", torch.add, x, y)
binary("sub", "sub", torch.sub, x, y)
binary("mul", "mul", torch.mul, x, y)
xm, ym = x.clone(), y.clone()
xm[1, 1], ym[2, 2] = nan, nan
binary("max", "max", torch.maximum, xm, ym)
binary("min", "min", torch.minimum, xm, ym)

# Element-wise unary kinds (with their edge values).
x = rnd(2, 3, 4, scale=4)
unary("detach", "detach", lambda t: t.detach(), x)
unary("abs", "abs", torch.abs, x)
unary("relu", "relu", torch.relu, x)
unary("tanh", "tanh", torch.tanh, x)
unary("sin", "sin", torch.sin, x)
unary("cos", "cos", torch.cos, x)
xs = torch.cat([rnd(10, scale=4), torch.tensor([0.0, -0.0, 1e-300, -1e-300, 2.0, inf])])
unary("sqrt", "sqrt", torch.sqrt, xs)  # NaN below 0 (PyTorch; TorchLean gives 0)
unary("inv", "inv", torch.reciprocal, xs)  # ±inf at ±0
unary("log", "log", torch.log, xs)  # -inf at 0, NaN below (PyTorch)
xe = torch.cat([rnd(10, scale=20), torch.tensor([1000.0, -1000.0, 709.0, -745.0, 0.0, -0.0])])
unary("exp", "exp", torch.exp, xe)
unary("sigmoid", "sigmoid", torch.sigmoid, xe)

# Constants: a flat payload entry reshaped to the result.
c = Case("const")
c.params["w"] = rnd(6)
c.write([c.node("const", [], (2, 3), 'params = "w"')], [c.params["w"].reshape(2, 3)])
c = Case("const_scalar")
c.params["k"] = torch.tensor([2.5])
c.write([c.node("const", [], (), 'params = "k"')], [torch.tensor(2.5)])


# Random kinds: TorchLean's SplitMix64 (no PyTorch counterpart), written independently here.
M64 = (1 << 64) - 1


def mix(z):
    z = (z + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def uniforms(seed, node, n):
    key = mix((seed + node) & M64)
    return [(mix((key + l) & M64) & 0xFFFFFFFF) / 2.0**32 for l in range(n)]


c = Case("rand_uniform")
a = c.arg(rnd(2))  # node 0: the argument; the random nodes are nodes 1 and 2
u1 = c.node("rand_uniform", [], (3, 4), "seed = 42")
u2 = c.node("rand_uniform", [], (5,), "seed = 18446744073709551615 : ui64")
c.write([u1, u2], [torch.tensor(uniforms(42, 1, 12)).reshape(3, 4), torch.tensor(uniforms(M64, 2, 5))])
c = Case("bernoulli_mask")
p = c.arg(torch.tensor(0.3))
m = c.node("bernoulli_mask", [p], (4, 5), "seed = 7")
c.write([m], [torch.tensor([1.0 if 0.3 > u else 0.0 for u in uniforms(7, 1, 20)]).reshape(4, 5)])

# Linear algebra.
for name, xshape, out in [("linear", (5,), 3), ("linear_batched", (2, 4, 5), 3)]:
    c = Case(name)
    x = rnd(*xshape)
    a = c.arg(x)
    c.params["fc.weight"], c.params["fc.bias"] = rnd(out, xshape[-1]), rnd(out)
    c.write([c.node("linear", [a], xshape[:-1] + (out,), 'params = "fc"')],
            [F.linear(x, c.params["fc.weight"], c.params["fc.bias"])])
for name, sa, sb in [("matmul", (3, 4), (4, 2)), ("matmul_batched", (2, 3, 4), (2, 4, 5))]:
    binary_c = Case(name)
    x, y = rnd(*sa), rnd(*sb)
    a, b = binary_c.arg(x), binary_c.arg(y)
    binary_c.write([binary_c.node("matmul", [a, b], tuple(torch.matmul(x, y).shape))], [torch.matmul(x, y)])
for name, xshape, outc, k, s, p in [("conv2d", (2, 5, 6), 3, (3, 3), 1, 1),
                                    ("conv2d_batched", (2, 2, 7, 7), 4, (2, 3), 2, 2),
                                    ("conv2d_nopad", (1, 4, 4), 2, (4, 4), 1, 0)]:
    c = Case(name)
    x = rnd(*xshape)
    a = c.arg(x)
    inc = xshape[-3]
    c.params["conv.weight"], c.params["conv.bias"] = rnd(outc, inc, *k), rnd(outc)
    y = F.conv2d(x, c.params["conv.weight"], c.params["conv.bias"], s, p)
    c.write([c.node("conv2d", [a], tuple(y.shape), f'kernel = [{k[0]}, {k[1]}], padding = {p}, params = "conv", stride = {s}')], [y])

# Pooling.
for kind, fn in [("max_pool2d", F.max_pool2d), ("avg_pool2d", F.avg_pool2d)]:
    for suffix, xshape, k, s, p in [("", (2, 5, 6), (2, 2), 2, 0), ("_pad", (2, 5, 6), (3, 3), 2, 1),
                                    ("_batched", (2, 3, 6, 5), (3, 2), 1, 1)]:
        c = Case(kind + suffix)
        x = rnd(*xshape) - 2  # mostly negative: padding must not win a max
        a = c.arg(x)
        y = fn(x, k, s, p)
        c.write([c.node(kind, [a], tuple(y.shape), f"kernel = [{k[0]}, {k[1]}], padding = {p}, stride = {s}")], [y])

# Normalization.
x = rnd(2, 3, 4, scale=5)
c = Case("softmax")
a = c.arg(x)
outs = [c.node("softmax", [a], x.shape, f"axis = {ax}") for ax in range(3)]
c.write(outs, [torch.softmax(x, dim=ax) for ax in range(3)])
c = Case("layer_norm")
a = c.arg(x)
outs = [c.node("layer_norm", [a], x.shape, f"axis = {ax}") for ax in range(3)]
outs.append(c.node("layer_norm", [a], x.shape, "axis = 1, epsilon = 1.0e-01"))
c.write(outs, [F.layer_norm(x, x.shape[ax:]) for ax in range(3)] + [F.layer_norm(x, x.shape[1:], eps=0.1)])

# Reductions.
for kind, fn in [("reduce_sum", torch.sum), ("reduce_mean", torch.mean)]:
    c = Case(kind)
    a = c.arg(x)
    outs = [c.node(kind, [a], tuple(fn(x, dim=ax).shape), f"axis = {ax}") for ax in range(3)]
    c.write(outs, [fn(x, dim=ax) for ax in range(3)])
c = Case("sum")
a = c.arg(x)
c.write([c.node("sum", [a], ())], [torch.sum(x)])

# Shape kinds.
c = Case("permute")
a = c.arg(x)
c.write([c.node("permute", [a], (4, 2, 3), "perm = [2, 0, 1]"), c.node("permute", [a], (2, 4, 3), "perm = [0, 2, 1]")],
        [x.permute(2, 0, 1), x.permute(0, 2, 1)])
c = Case("broadcast_to")
srcs = [(rnd(3), (2, 3)), (rnd(3, 1), (2, 3, 5)), (torch.tensor(1.5), (2, 2)), (rnd(3), (3, 3)), (rnd(2, 3), (2, 2, 3)), (rnd(1, 4), (2, 3, 4))]
outs, exp = [], []
for t, shape in srcs:
    outs.append(c.node("broadcast_to", [c.arg(t)], shape))
    exp.append(torch.broadcast_to(t, shape))
c.write(outs, exp)
c = Case("reshape")
a = c.arg(x)
c.write([c.node("reshape", [a], (4, 6)), c.node("reshape", [a], (24, 1))], [x.reshape(4, 6), x.reshape(24, 1)])
c = Case("flatten")
a = c.arg(x)
c.write([c.node("flatten", [a], (24,))], [torch.flatten(x)])
c = Case("concat")
ts = [rnd(2, 1, 3), rnd(2, 2, 3), rnd(2, 3, 3)]
args = [c.arg(t) for t in ts]
c.write([c.node("concat", args, (2, 6, 3), "axis = 1"), c.node("concat", args[:1] + args[:1], (4, 1, 3), "axis = 0")],
        [torch.cat(ts, dim=1), torch.cat([ts[0], ts[0]], dim=0)])
c = Case("swap_first_two")
a = c.arg(x)
c.write([c.node("swap_first_two", [a], (3, 2, 4))], [x.transpose(0, 1)])
c = Case("transpose3d_last_two")
a = c.arg(x)
c.write([c.node("transpose3d_last_two", [a], (2, 4, 3))], [x.transpose(1, 2)])

# Loss.
x, y = rnd(3, 4), rnd(3, 4)
binary_c = Case("mse_loss")
a, b = binary_c.arg(x), binary_c.arg(y)
binary_c.write([binary_c.node("mse_loss", [a, b], ())], [F.mse_loss(x, y, reduction="mean")])

# A small network end to end: linear, relu, linear, softmax.
c = Case("mlp")
x = rnd(4, 6)
a = c.arg(x)
c.params.update({"fc1.weight": rnd(8, 6), "fc1.bias": rnd(8), "fc2.weight": rnd(3, 8), "fc2.bias": rnd(3)})
h = c.node("linear", [a], (4, 8), 'params = "fc1"')
r = c.node("relu", [h], (4, 8))
o = c.node("linear", [r], (4, 3), 'params = "fc2"')
s = c.node("softmax", [o], (4, 3), "axis = 1")
ref = torch.softmax(F.linear(torch.relu(F.linear(x, c.params["fc1.weight"], c.params["fc1.bias"])), c.params["fc2.weight"], c.params["fc2.bias"]), dim=1)
c.write([s], [ref])
