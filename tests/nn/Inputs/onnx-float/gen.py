#!/usr/bin/python3
"""Writes the float PyTorch models of otir's ONNX importer tests for the
layers of issue 28 (docs/nn.md "Importing ONNX models").

Run with Debian's python3 (torch 1.13, onnx 1.12, numpy):

    /usr/bin/python3 tests/nn/Inputs/onnx-float/gen.py

Deterministic (fixed seeds). Each model NAME is a float32 module, as users
export them: NAME.onnx (torch.onnx.export in eval mode, or onnx.helper for
the operators PyTorch 1.13 does not write), NAME.in0.npy (float32 samples,
one leading axis more than the graph's input: [S, ...]) and NAME.out0.npy
(PyTorch's float32 output of each sample, [S, ...]); bn_mlp.x0.npy is
bn_mlp's first sample alone ([1, 16], the graph's input);
bn_mlp.calib.npy holds 256 samples of its training distribution
([256, 1, 16], for calibration) and bn_mlp.calib.out.npy PyTorch's outputs
on them. bad-*.onnx are
small onnx.helper models the importer refuses (tests/nn/onnx-float.lit).
`gen.py NAME...` writes only the models named (e.g. `gen.py mobile`).
backend/onnximport's TestFloatModels evaluates the imported graphs on each
sample and compares with PyTorch within 1e-5 relative (plus 1e-5
absolute); lower/nn/kernels' TestFloatLayersToCircuit quantizes each by
calibration on the samples and checks the circuit against the quantized
evaluator bit for bit.

bn_mlp is the hls4ml-style jet MLP with BatchNorm1d (16-32-BN-ReLU-16-BN-
ReLU-5), trained briefly on synthetic data so that its weights and batch
statistics are realistic: docs/nn-to-circuit.md follows it from PyTorch to
Verilog.
"""
import os

import numpy as np
import onnx
import torch
import torch.nn as nn
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = 8


class BNMLP(nn.Module):
    """hls4ml's jet tagger shape with batch norms after the linears."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.bn1 = nn.BatchNorm1d(32)
        self.fc2 = nn.Linear(32, 16)
        self.bn2 = nn.BatchNorm1d(16)
        self.fc3 = nn.Linear(16, 5)

    def forward(self, x):
        x = torch.relu(self.bn1(self.fc1(x)))
        x = torch.relu(self.bn2(self.fc2(x)))
        return self.fc3(x)


class BNNodes(nn.Module):
    """Batch norms that cannot fold: one on the input, one after a residual
    add, one on [N, C, L] after a transpose, a BatchNorm2d after a
    reshape."""

    def __init__(self):
        super().__init__()
        self.bn0 = nn.BatchNorm1d(8)
        self.fc = nn.Linear(8, 8)
        self.bn1 = nn.BatchNorm1d(8)
        self.bn2 = nn.BatchNorm1d(2)
        self.bn3 = nn.BatchNorm2d(2)

    def forward(self, x):
        y = self.bn1(self.fc(self.bn0(x)) + x)
        z = self.bn2(y.reshape(-1, 4, 2).transpose(1, 2))  # [N, 2, 4]
        return self.bn3(z.reshape(-1, 2, 2, 2)).reshape(-1, 8)


class Acts(nn.Module):
    """LeakyReLU, ReLU6, Hardtanh and clamp (both bounds, min only, max
    only) between linears."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 12)
        self.fc2 = nn.Linear(12, 12)
        self.fc3 = nn.Linear(12, 4)

    def forward(self, x):
        x = nn.functional.leaky_relu(self.fc1(x), 0.1)
        x = nn.functional.relu6(self.fc2(x) * 4.0)
        x = nn.functional.hardtanh(x - 3.0, -0.5, 0.5) + x.clamp(min=1.0) + x.clamp(max=2.0) + x.clamp(-1.0, 5.0)
        return self.fc3(x)


class Hard(nn.Module):
    """HardSigmoid, HardSwish (HardSigmoid and Mul in PyTorch 1.13),
    Sigmoid, Tanh."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 10)
        self.fc2 = nn.Linear(10, 10)
        self.fc3 = nn.Linear(10, 3)
        self.fc4 = nn.Linear(10, 3)

    def forward(self, x):
        x = nn.functional.hardswish(self.fc1(x) * 3.0)
        x = nn.functional.hardsigmoid(self.fc2(x) * 4.0)
        return torch.tanh(self.fc3(x)) + torch.sigmoid(self.fc4(x))


class Elus(nn.Module):
    """ELU, SELU, PReLU (one slope; one a feature, of both signs, zero and
    above 1) and Softsign between linears: the other activations of Keras
    and PyTorch that hls4ml reads."""

    def __init__(self):
        super().__init__()
        self.fc = nn.ModuleList([nn.Linear(6, 10)] + [nn.Linear(10, 10) for _ in range(3)] + [nn.Linear(10, 3)])
        self.p1 = nn.PReLU()
        self.p2 = nn.PReLU(10)
        with torch.no_grad():
            self.p2.weight.copy_(torch.tensor([-0.3, 0.25, 1.5, 0.0, 2.0, 0.5, -1.0, 1.0, 0.1, 3.0]))

    def forward(self, x):
        x = nn.functional.elu(self.fc[0](x) * 2.0, 0.7)
        x = nn.functional.selu(self.fc[1](x) * 2.0)
        x = self.p2(self.p1(self.fc[2](x) * 2.0) + self.fc[3](x))
        return self.fc[4](nn.functional.softsign(x * 3.0))


class Strides(nn.Module):
    """Strides that differ between H and W (an audio CNN's): a Conv2d of
    stride (2, 1) and padding 1, a MaxPool2d of stride (1, 2), an
    AvgPool2d of kernel 3, stride (2, 3) and padding 1 excluding it, a
    MaxPool2d of stride (2, 3) with ceil_mode."""

    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(2, 3, 3, stride=(2, 1), padding=1)

    def forward(self, x):
        y = nn.functional.relu(self.c(x))
        a = nn.functional.max_pool2d(y, 2, stride=(1, 2))
        b = nn.functional.avg_pool2d(y, 3, stride=(2, 3), padding=1, count_include_pad=False)
        c = nn.functional.max_pool2d(y, 3, stride=(2, 3), ceil_mode=True)
        return torch.cat([a.flatten(1), b.flatten(1), c.flatten(1)], 1)


class GapCNN(nn.Module):
    """Conv2d + BatchNorm2d (kept by the export: do_constant_folding off) +
    ReLU, AdaptiveAvgPool2d(1) (GlobalAveragePool), and a mean over H and W
    (ReduceMean)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.conv2 = nn.Conv2d(4, 3, 3)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(7, 3)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        a = torch.flatten(self.gap(y), 1)
        b = self.conv2(y).mean(dim=(2, 3))
        return self.fc(torch.cat([a, b], dim=1))


class Conv1D(nn.Module):
    """Conv1d (padded, and strided) with BatchNorm1d, MaxPool1d (plain and
    padded), AvgPool1d (padded, counting the padding), a 1-D
    GlobalAveragePool."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(2, 4, 3, padding=1)
        self.bn = nn.BatchNorm1d(4)
        self.pool = nn.MaxPool1d(2)
        self.c2 = nn.Conv1d(4, 3, 3, stride=2)
        self.avg = nn.AvgPool1d(3, stride=1, padding=1)
        self.mp = nn.MaxPool1d(3, stride=1, padding=1)
        self.gap = nn.AdaptiveAvgPool1d(1)
        self.fc = nn.Linear(9 + 3, 4)

    def forward(self, x):  # [N, 2, 16]
        y = self.pool(torch.relu(self.bn(self.c1(x))))  # [N, 4, 8]
        z = self.mp(self.avg(self.c2(y)))  # [N, 3, 3]
        return self.fc(torch.cat([torch.flatten(z, 1), torch.flatten(self.gap(z), 1)], dim=1))


class Mobile(nn.Module):
    """A MobileNet block (the zoo's MobileNet, hls4ml's depthwise layers): a
    3x3 Conv2d, BatchNorm2d and ReLU6; a depthwise 3x3 Conv2d (groups = C,
    stride 2, padded) with BatchNorm2d and ReLU; a pointwise 1x1 Conv2d; a
    grouped 3x3 Conv2d (groups=2) with BatchNorm2d; then a grouped Conv1d
    (groups=2) over the flattened rows, ReLU and a Linear."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(2, 6, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(6)
        self.dw = nn.Conv2d(6, 6, 3, stride=2, padding=1, groups=6)
        self.bn2 = nn.BatchNorm2d(6)
        self.pw = nn.Conv2d(6, 8, 1)
        self.g2 = nn.Conv2d(8, 4, 3, padding=1, groups=2, bias=False)
        self.bn3 = nn.BatchNorm2d(4)
        self.c1d = nn.Conv1d(4, 6, 3, padding=1, groups=2)
        self.fc = nn.Linear(96, 3)

    def forward(self, x):  # [N, 2, 8, 8]
        y = nn.functional.relu6(self.bn1(self.c1(x)))
        y = torch.relu(self.bn2(self.dw(y)))  # [N, 6, 4, 4]
        y = self.bn3(self.g2(self.pw(y)))  # [N, 4, 4, 4]
        z = self.c1d(torch.flatten(y, 2))  # [N, 6, 16]
        return self.fc(torch.flatten(torch.relu(z), 1))


def randomize_bn(model, seed):
    """Batch statistics and affine parameters far from the identity, as
    after training."""
    g = torch.Generator().manual_seed(seed)
    for m in model.modules():
        if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d)):
            c = m.num_features
            m.running_mean.copy_(torch.randn(c, generator=g) * 0.5)
            m.running_var.copy_(torch.rand(c, generator=g) * 2 + 0.1)
            m.weight.data.copy_(torch.randn(c, generator=g) * 0.5 + 1)
            m.bias.data.copy_(torch.randn(c, generator=g) * 0.3)


def train_bn_mlp():
    """A few hundred Adam steps on a synthetic 5-class task (labels from a
    random teacher), so that the weights and BN statistics are trained."""
    torch.manual_seed(10)
    model = BNMLP()
    teacher = torch.randn(16, 5)
    x = torch.randn(2048, 16)
    y = (x @ teacher + 0.3 * torch.randn(2048, 5)).argmax(1)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    model.train()
    for step in range(300):
        i = torch.randint(0, 2048, (128,))
        loss = nn.functional.cross_entropy(model(x[i]), y[i])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    print("bn_mlp: training accuracy %.3f, loss %.3f" % (acc, loss.item()))
    return model


class Pads(nn.Module):
    """Padding as Keras and PyTorch users write it: ZeroPad2d((0, 1, 0, 1))
    before a stride-2 Conv2d (Keras's 'same' downsampling), an AvgPool2d
    that excludes its padding (count_include_pad=False: Keras's 'same'
    average), a -inf ConstantPad2d on two sides only before a MaxPool2d,
    and a stride-2 AvgPool2d excluding its padding."""

    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(2, 3, 3, stride=2)
        self.avg = nn.AvgPool2d(3, stride=1, padding=1, count_include_pad=False)
        self.avg2 = nn.AvgPool2d(2, stride=2, padding=1, count_include_pad=False)

    def forward(self, x):  # [N, 2, 8, 8]
        y = torch.relu(self.c(nn.functional.pad(x, (0, 1, 0, 1))))  # [N, 3, 4, 4]
        y = self.avg(y)
        y = nn.functional.max_pool2d(nn.functional.pad(y, (1, 0, 1, 0), value=float("-inf")), 2, 2)  # [N, 3, 2, 2]
        return self.avg2(y)  # [N, 3, 2, 2]


class Pads1D(nn.Module):
    """The 1-D forms: a ConstantPad1d((0, 2)) before a Conv1d, an AvgPool1d
    of stride 2 excluding its padding."""

    def __init__(self):
        super().__init__()
        self.c = nn.Conv1d(2, 3, 3)
        self.avg = nn.AvgPool1d(3, stride=2, padding=1, count_include_pad=False)

    def forward(self, x):  # [N, 2, 9]
        return self.avg(torch.relu(self.c(nn.functional.pad(x, (0, 2)))))  # [N, 3, 5]


class Dilated(nn.Module):
    """Dilated convolutions (a TCN's, WaveNet's): a Conv2d of dilation 2
    and padding 2, and a Conv1d of dilation 4 over the flattened rows."""

    def __init__(self):
        super().__init__()
        self.c2 = nn.Conv2d(2, 3, 3, dilation=2, padding=2)
        self.c1 = nn.Conv1d(3, 2, 3, dilation=4, padding=1)

    def forward(self, x):  # [N, 2, 7, 7]
        y = torch.relu(self.c2(x))  # [N, 3, 7, 7]
        return self.c1(torch.flatten(y, 2))  # [N, 2, 43]


class Upsampling(nn.Module):
    """Nearest upsampling (an autoencoder's decoder, a U-Net's): a Conv2d,
    nn.Upsample(scale_factor=2), a Conv2d; the rows flattened, upsampled
    by 3 in 1-D."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(2, 3, 3, padding=1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.c2 = nn.Conv2d(3, 2, 3)
        self.up1 = nn.Upsample(scale_factor=3, mode="nearest")

    def forward(self, x):  # [N, 2, 4, 4]
        y = self.c2(self.up(torch.relu(self.c1(x))))  # [N, 2, 6, 6]
        return self.up1(torch.flatten(y, 2))  # [N, 2, 108]


class Deconv(nn.Module):
    """Transposed convolutions (an autoencoder's decoder): a
    ConvTranspose2d of stride 2, padding 1 and output_padding 1, ReLU; the
    rows flattened and a ConvTranspose1d of kernel 4, stride 2, padding 1."""

    def __init__(self):
        super().__init__()
        self.d2 = nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1)
        self.d1 = nn.ConvTranspose1d(2, 2, 4, stride=2, padding=1)

    def forward(self, x):  # [N, 3, 3, 3]
        y = torch.relu(self.d2(x))  # [N, 2, 6, 6]
        return self.d1(torch.flatten(y, 2))  # [N, 2, 72]


class DeconvGroups(nn.Module):
    """Grouped transposed convolutions (a light decoder's): a
    ConvTranspose2d of 4 to 6 channels in 2 groups, stride 2, padding 1,
    ReLU, and a depthwise one (6 groups) of stride (1, 2)."""

    def __init__(self):
        super().__init__()
        self.g2 = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, groups=2)
        self.dw = nn.ConvTranspose2d(6, 6, 2, stride=(1, 2), groups=6)

    def forward(self, x):  # [N, 4, 3, 3]
        return self.dw(torch.relu(self.g2(x)))


class Ceil(nn.Module):
    """Pools with ceil_mode=True (the last, partial window kept): a
    MaxPool2d(3, 2), an AvgPool2d(3, 2, padding=1) counting its padding
    and one excluding it, an AvgPool1d(3, 2) over the flattened rows."""

    def forward(self, x):  # [N, 2, 6, 6]
        F = nn.functional
        a = F.max_pool2d(x, 3, 2, ceil_mode=True)  # [N, 2, 3, 3]
        b = F.avg_pool2d(x, 3, 2, padding=1, ceil_mode=True)  # [N, 2, 4, 4]
        c = F.avg_pool2d(x, 3, 2, padding=1, ceil_mode=True, count_include_pad=False)
        d = F.avg_pool1d(torch.flatten(x, 2), 3, 2, ceil_mode=True)  # [N, 2, 18]
        return torch.cat([torch.flatten(a, 1), torch.flatten(b, 1), torch.flatten(c, 1), torch.flatten(d, 1)], 1)


class Conv1x(nn.Module):
    """Keras's Conv1D as tf2onnx writes it, a 2-D layer on [N, C, 1, L]: a
    Conv2d of kernel (1, 3), strides (1, 2) and dilation (1, 2), ReLU, a
    MaxPool2d of (1, 2) and strides (1, 2)."""

    def __init__(self):
        super().__init__()
        self.c = nn.Conv2d(2, 3, (1, 3), stride=(1, 2), dilation=(1, 2))

    def forward(self, x):  # [N, 2, 1, 17]
        return nn.functional.max_pool2d(torch.relu(self.c(x)), (1, 2), (1, 2))  # [N, 3, 1, 3]


def save_graph(name, nodes, inits, in_shape, out_shape):
    """Checks and writes an onnx.helper model (opset 13) of one input x and
    one output y, float32; returns its path."""
    g = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, in_shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(m)
    path = os.path.join(HERE, name + ".onnx")
    onnx.save(m, path)
    return path


def resize_modes():
    """Resize as other exporters write it (onnx.helper): half_pixel with
    round_prefer_ceil and scales 1.5 on 4x4, and sizes [1, 2, 5, 7] with
    asymmetric and floor. The references are PyTorch's interpolate in
    mode nearest-exact (floor((i + 0.5)/scale)) and nearest (floor(i·in/out))."""
    rng = np.random.default_rng(9)
    nodes = [
        helper.make_node("Resize", ["x", "", "s"], ["a"], name="Resize_0", mode="nearest",
                         coordinate_transformation_mode="half_pixel", nearest_mode="round_prefer_ceil"),
        helper.make_node("Resize", ["a", "", "", "z"], ["y"], name="Resize_1", mode="nearest",
                         coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
    ]
    inits = [helper.make_tensor("s", TensorProto.FLOAT, [4], [1, 1, 1.5, 1.5]), helper.make_tensor("z", TensorProto.INT64, [4], [1, 2, 5, 7])]
    path = save_graph("resize", nodes, inits, [1, 2, 4, 4], [1, 2, 5, 7])
    F = torch.nn.functional
    x = torch.from_numpy(rng.standard_normal((SAMPLES, 1, 2, 4, 4)).astype(np.float32))
    ys = [F.interpolate(F.interpolate(s, scale_factor=1.5, mode="nearest-exact"), size=(5, 7), mode="nearest") for s in x]
    write("resize", path, x.numpy(), torch.stack(ys).numpy())


def same_pads():
    """ONNX's auto_pad, which PyTorch 1.13 does not write (tf2onnx may):
    a Conv of stride 2 with SAME_UPPER on 6x6 (its padding at the end),
    Relu, a MaxPool of 3 with stride 2 and SAME_LOWER (at the beginning),
    an AveragePool of 3 with SAME_UPPER excluding its padding. The
    reference is PyTorch's on the explicitly padded input (pads from
    ONNX's formula, the odd cell at the end for UPPER)."""
    rng = np.random.default_rng(8)
    w = rng.standard_normal((3, 2, 3, 3)).astype(np.float32)
    b = rng.standard_normal(3).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="Conv_0", auto_pad="SAME_UPPER", strides=[2, 2]),
        helper.make_node("Relu", ["c"], ["r"], name="Relu_1"),
        helper.make_node("MaxPool", ["r"], ["m"], name="MaxPool_2", kernel_shape=[3, 3], strides=[2, 2], auto_pad="SAME_LOWER"),
        helper.make_node("AveragePool", ["m"], ["y"], name="AveragePool_3", kernel_shape=[3, 3], auto_pad="SAME_UPPER"),
    ]
    inits = [helper.make_tensor("w", TensorProto.FLOAT, w.shape, w.ravel()), helper.make_tensor("b", TensorProto.FLOAT, b.shape, b)]
    path = save_graph("same", nodes, inits, [1, 2, 6, 6], [1, 3, 2, 2])
    F = torch.nn.functional
    x = torch.from_numpy(rng.standard_normal((SAMPLES, 1, 2, 6, 6)).astype(np.float32))
    ys = []
    for s in x:
        # Conv: 6 -> 3 at stride 2 needs (3-1)*2 + 3 - 6 = 1 cell: at the end.
        c = torch.relu(F.conv2d(F.pad(s, (0, 1, 0, 1)), torch.from_numpy(w), torch.from_numpy(b), stride=2))
        # MaxPool: 3 -> 2 at stride 2 needs (2-1)*2 + 3 - 3 = 2 cells: 1 and 1.
        p = F.max_pool2d(F.pad(c, (1, 1, 1, 1), value=float("-inf")), 3, 2)
        # AveragePool: 2 -> 2 at stride 1 needs 2 cells: 1 and 1; the mean of the cells inside.
        total = F.avg_pool2d(F.pad(p, (1, 1, 1, 1)), 3, 1, divisor_override=1)
        count = F.avg_pool2d(F.pad(torch.ones_like(p), (1, 1, 1, 1)), 3, 1, divisor_override=1)
        ys.append(total / count)
    write("same", path, x.numpy(), torch.stack(ys).numpy())


def save(name, model, samples, opset=13, **kw):
    """Exports model on one sample's shape and writes the samples and
    PyTorch's outputs."""
    model.eval()
    with torch.no_grad():
        out = torch.stack([model(s) for s in samples])
    path = os.path.join(HERE, name + ".onnx")
    torch.onnx.export(model, (samples[0],), path, opset_version=opset,
                      input_names=["x"], output_names=["y"], **kw)
    write(name, path, samples.numpy(), out.numpy())


def write(name, path, x, y):
    np.save(os.path.join(HERE, name + ".in0.npy"), x.astype(np.float32))
    np.save(os.path.join(HERE, name + ".out0.npy"), y.astype(np.float32))
    print(name, os.path.getsize(path), "bytes:",
          " ".join(n.op_type for n in onnx.load(path).graph.node))


def hand_made():
    """The operators PyTorch 1.13 does not write: HardSwish (opset 14) and
    HardSigmoid with ONNX's default alpha and beta; Cast of constants (an
    int64 constant to float, a float constant to int8 and back, a bool)."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((SAMPLES, 1, 6)).astype(np.float32) * 4
    k = helper.make_tensor("k", TensorProto.INT64, [6], [1, -2, 3, 300, 5, -6])
    f = helper.make_tensor("f", TensorProto.FLOAT, [6], [0.5, -1.75, 2.25, 127.9, -128.5, 3.0])
    nodes = [
        helper.make_node("HardSwish", ["x"], ["hs"], name="HardSwish_0"),
        helper.make_node("HardSigmoid", ["x"], ["hg"], name="HardSigmoid_1"),
        helper.make_node("Constant", [], ["kc"], name="Constant_2", value=k),
        helper.make_node("Cast", ["kc"], ["kf"], name="Cast_3", to=TensorProto.FLOAT),
        helper.make_node("Cast", ["kc"], ["k8"], name="Cast_4", to=TensorProto.INT8),
        helper.make_node("Cast", ["k8"], ["k8f"], name="Cast_5", to=TensorProto.DOUBLE),
        helper.make_node("Constant", [], ["fc"], name="Constant_6", value=f),
        helper.make_node("Cast", ["fc"], ["fi"], name="Cast_7", to=TensorProto.INT8),
        helper.make_node("Cast", ["fi"], ["fif"], name="Cast_8", to=TensorProto.FLOAT),
        helper.make_node("Cast", ["fc"], ["fb"], name="Cast_9", to=TensorProto.BOOL),
        helper.make_node("Cast", ["fb"], ["fbf"], name="Cast_10", to=TensorProto.FLOAT),
        helper.make_node("Mul", ["hs", "kf"], ["a"], name="Mul_11"),
        helper.make_node("Mul", ["hg", "k8f"], ["b"], name="Mul_12"),
        helper.make_node("Add", ["a", "b"], ["c"], name="Add_13"),
        helper.make_node("Mul", ["x", "fif"], ["d"], name="Mul_14"),
        helper.make_node("Add", ["c", "d"], ["e"], name="Add_15"),
        helper.make_node("Add", ["e", "fbf"], ["y"], name="Add_16"),
    ]
    g = helper.make_graph(nodes, "hand", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 6])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 6])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])
    onnx.checker.check_model(m)
    path = os.path.join(HERE, "hand.onnx")
    onnx.save(m, path)
    # ONNX's definitions, in float32 as ONNX Runtime computes them.
    kf = np.array([1, -2, 3, 300, 5, -6], np.float32)
    k8 = np.array([1, -2, 3, 300 - 256, 5, -6], np.float32)  # int8 wraps
    fi = np.array([0, -1, 2, 127, -128, 3], np.float32)  # toward zero
    fb = np.ones(6, np.float32)
    hs = x * np.clip(x / np.float32(6) + np.float32(0.5), 0, 1)
    hg = np.clip(np.float32(0.2) * x + np.float32(0.5), 0, 1)
    y = hs * kf + hg * k8 + x * fi + fb
    write("hand", path, x, y)


def bad_models():
    """Models the importer refuses, naming the node: a batch norm in
    training mode, a Clip bound of two values, a 1-D max pool padded by as
    many cells as its kernel has."""
    c = [helper.make_tensor(n, TensorProto.FLOAT, [2], [1.0, 0.5]) for n in "gbmv"]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    for name, node, inits in [
        ("bad-bn-training", helper.make_node("BatchNormalization", ["x", "g", "b", "m", "v"], ["y"], name="bn1",
                                             training_mode=1), c),
        ("bad-clip-bound", helper.make_node("Clip", ["x", "g"], ["y"], name="clamp"), c[:1]),
        ("bad-maxpool1d-pad", helper.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[3], pads=[3, 3]), []),
    ]:
        g = helper.make_graph([node], name, [x], [y], inits)
        onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 15)]), os.path.join(HERE, name + ".onnx"))


def main():
    torch.manual_seed(0)
    mlp = train_bn_mlp()
    save("bn_mlp", mlp, torch.randn(SAMPLES, 1, 16) * 1.5)
    # One sample as the graph's input, for otir-run and the walkthrough.
    np.save(os.path.join(HERE, "bn_mlp.x0.npy"), np.load(os.path.join(HERE, "bn_mlp.in0.npy"))[0])
    # 256 samples of the training distribution, for calibration, and
    # PyTorch's outputs on them (the quantization error of the walkthrough).
    torch.manual_seed(11)
    calib = torch.randn(256, 1, 16)
    with torch.no_grad():
        np.save(os.path.join(HERE, "bn_mlp.calib.npy"), calib.numpy())
        np.save(os.path.join(HERE, "bn_mlp.calib.out.npy"), torch.stack([mlp(s) for s in calib]).numpy())

    torch.manual_seed(1)
    m = BNNodes()
    randomize_bn(m, 1)
    save("bn_nodes", m, torch.randn(SAMPLES, 3, 8))

    torch.manual_seed(2)
    save("acts", Acts(), torch.randn(SAMPLES, 2, 6))
    torch.manual_seed(2)
    save("acts9", Acts(), torch.randn(SAMPLES, 2, 6), opset=9)

    torch.manual_seed(3)
    save("hard", Hard(), torch.randn(SAMPLES, 2, 6))

    torch.manual_seed(4)
    m = GapCNN()
    randomize_bn(m, 4)
    save("gap_cnn", m, torch.randn(SAMPLES, 1, 2, 6, 6), do_constant_folding=False,
         training=torch.onnx.TrainingMode.PRESERVE)

    torch.manual_seed(5)
    m = Conv1D()
    randomize_bn(m, 5)
    save("conv1d", m, torch.randn(SAMPLES, 2, 2, 16), training=torch.onnx.TrainingMode.PRESERVE)

    hand_made()
    bad_models()
    mobile()
    pads()
    same_pads()


def elus():
    torch.manual_seed(17)
    save("elus", Elus(), torch.randn(SAMPLES, 2, 6))
    # The forms PyTorch 1.13 does not write (onnx.helper; PyTorch's
    # functions as the reference): Softsign (PyTorch writes Abs, Add, Div),
    # Elu and Selu with their attributes given, PRelu of a computed slope.
    nodes = [
        helper.make_node("Softsign", ["x"], ["a"], name="Softsign_0"),
        helper.make_node("Elu", ["x"], ["b"], name="Elu_1", alpha=0.5),
        helper.make_node("Selu", ["x"], ["c"], name="Selu_2", alpha=1.5, gamma=0.75),
        helper.make_node("PRelu", ["x", "a"], ["d"], name="PRelu_3"),
        helper.make_node("Add", ["a", "b"], ["e"], name="Add_4"),
        helper.make_node("Add", ["c", "d"], ["f"], name="Add_5"),
        helper.make_node("Add", ["e", "f"], ["y"], name="Add_6"),
    ]
    path = save_graph("elus_hand", nodes, [], [1, 8], [1, 8])
    F = torch.nn.functional
    x = torch.from_numpy(np.random.default_rng(17).standard_normal((SAMPLES, 1, 8)).astype(np.float32) * 3)
    a = F.softsign(x)
    c = 0.75 * torch.where(x > 0, x, 1.5 * (torch.exp(x) - 1))
    write("elus_hand", path, x.numpy(), (a + F.elu(x, 0.5) + c + torch.where(x >= 0, x, a * x)).numpy())


def deconv_groups():
    torch.manual_seed(19)
    save("deconv_groups", DeconvGroups(), torch.randn(SAMPLES, 1, 4, 3, 3))


def deconv_shapes():
    """A ConvTranspose's output sizes as tf2onnx writes Keras's
    Conv2DTranspose (onnx.helper): output_shape [7, 5] of a 3x3 kernel of
    stride 2 on 3x3 (pads total 0 and 2: the larger half at the
    beginning), auto_pad SAME_UPPER (the output 2·input, the larger half at
    the end), output_shape [1, 3, 6, 7] (the whole shape). The reference is
    PyTorch's conv_transpose2d unpadded, cropped to ONNX's pads."""
    rng = np.random.default_rng(20)
    w = rng.standard_normal((2, 3, 3, 3)).astype(np.float32)
    b = rng.standard_normal(3).astype(np.float32)
    nodes = [
        helper.make_node("ConvTranspose", ["x", "w", "b"], ["a"], name="ConvTranspose_0", strides=[2, 2], output_shape=[7, 5]),
        helper.make_node("ConvTranspose", ["x", "w", "b"], ["c"], name="ConvTranspose_1", strides=[2, 2], auto_pad="SAME_UPPER"),
        helper.make_node("ConvTranspose", ["x", "w", "b"], ["d"], name="ConvTranspose_2", strides=[2, 2], output_shape=[1, 3, 6, 7]),
        helper.make_node("Flatten", ["a"], ["fa"], name="Flatten_3", axis=1),
        helper.make_node("Flatten", ["c"], ["fc"], name="Flatten_4", axis=1),
        helper.make_node("Flatten", ["d"], ["fd"], name="Flatten_5", axis=1),
        helper.make_node("Concat", ["fa", "fc", "fd"], ["y"], name="Concat_6", axis=1),
    ]
    inits = [helper.make_tensor("w", TensorProto.FLOAT, w.shape, w.ravel()), helper.make_tensor("b", TensorProto.FLOAT, b.shape, b)]
    path = save_graph("deconv_shapes", nodes, inits, [1, 2, 3, 3], [1, 3 * (35 + 36 + 42)])
    F = torch.nn.functional
    x = torch.from_numpy(rng.standard_normal((SAMPLES, 1, 2, 3, 3)).astype(np.float32))

    def onnx_pads(full, out, upper):  # ONNX's split of total = full - out
        t = full - out
        return (t // 2, t - t // 2) if upper else (t - t // 2, t // 2)

    def crop(y, out_hw, upper):  # y [1, 3, 7, 7], the unpadded output
        ph, pw = onnx_pads(y.shape[2], out_hw[0], upper), onnx_pads(y.shape[3], out_hw[1], upper)
        return y[:, :, ph[0]:y.shape[2] - ph[1], pw[0]:y.shape[3] - pw[1]]

    ys = []
    for s in x:
        full = F.conv_transpose2d(s, torch.from_numpy(w), torch.from_numpy(b), stride=2)
        parts = [crop(full, (7, 5), False), crop(full, (6, 6), True), crop(full, (6, 7), False)]
        ys.append(torch.cat([p.flatten(1) for p in parts], 1))
    write("deconv_shapes", path, x.numpy(), torch.stack(ys).numpy())


def strides():
    torch.manual_seed(18)
    save("strides", Strides(), torch.randn(SAMPLES, 1, 2, 9, 10))


def mobile():
    torch.manual_seed(6)
    m = Mobile()
    randomize_bn(m, 6)
    save("mobile", m, torch.randn(SAMPLES, 1, 2, 8, 8))


def pads():
    torch.manual_seed(9)
    save("pads", Pads(), torch.randn(SAMPLES, 1, 2, 8, 8))
    torch.manual_seed(10)
    save("pads1d", Pads1D(), torch.randn(SAMPLES, 1, 2, 9))
    torch.manual_seed(12)
    save("dilated", Dilated(), torch.randn(SAMPLES, 1, 2, 7, 7))
    torch.manual_seed(13)
    save("upsample", Upsampling(), torch.randn(SAMPLES, 1, 2, 4, 4))
    resize_modes()
    torch.manual_seed(14)
    save("deconv", Deconv(), torch.randn(SAMPLES, 1, 3, 3, 3))
    torch.manual_seed(15)
    save("ceil", Ceil(), torch.randn(SAMPLES, 1, 2, 6, 6))
    torch.manual_seed(16)
    save("conv1x", Conv1x(), torch.randn(SAMPLES, 1, 2, 1, 17))
    elus()
    strides()
    deconv_groups()
    deconv_shapes()


if __name__ == "__main__":
    import sys

    # gen.py NAME... writes only those models (mobile), leaving the others'
    # files as they are
    if len(sys.argv) > 1:
        for name in sys.argv[1:]:
            globals()[name]()
    else:
        main()
