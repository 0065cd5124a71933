"""A float64 NumPy interpreter of the ONNX and QONNX operators of the QONNX
zoo's MLPs (and of gen.py's equivalents): the reference TestQONNXEval
compares otir's import and evaluator with. QONNX's quantizers are
tests/nn/Inputs/qonnx/qonnx_ref.py, QONNX's own code transcribed; the ONNX
operators follow the ONNX specification's formulas in float64.

Usage: /usr/bin/python3 ref.py MODEL.onnx IN.npy OUT.npy
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../tests/nn/Inputs/qonnx"))
import qonnx_ref  # noqa: E402


def run(model, x):
    opset = max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    env = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    env = {k: (v.astype(np.float64) if v.dtype.kind == "f" else v) for k, v in env.items()}
    inputs = [i.name for i in model.graph.input if i.name not in env]
    env[inputs[0]] = np.asarray(x, dtype=np.float64)
    for n in model.graph.node:
        a = {at.name: helper.get_attribute_value(at) for at in n.attribute}
        i = [env[name] if name else None for name in n.input]
        env[n.output[0]] = node(n.op_type, i, a, opset)
    return env[model.graph.output[0].name]


def node(op, i, a, opset):
    if op == "Quant":
        return qonnx_ref.int_quant(i[0], i[1], i[2], i[3], a["signed"], a["narrow"], a.get("rounding_mode", b"ROUND").decode())
    if op == "BipolarQuant":
        return qonnx_ref.binary_quant(i[0], i[1])
    if op == "Trunc":
        rm = a.get("rounding_mode", b"FLOOR").decode()
        if len(i) == 5:
            return qonnx_ref.trunc_v1(i[0], i[1], i[2], i[3], i[4], rm)
        return qonnx_ref.trunc_v2(i[0], i[1], i[2], i[3], a.get("narrow", 0), a.get("signed", 1), i[4], i[5], rm)
    if op in ("Add", "Sub", "Mul", "Div", "Pow"):
        return {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide, "Pow": np.power}[op](i[0], i[1])
    if op == "MatMul":
        return i[0] @ i[1]
    if op == "Gemm":
        A = i[0].T if a.get("transA", 0) else i[0]
        B = i[1].T if a.get("transB", 0) else i[1]
        y = a.get("alpha", 1.0) * (A @ B)
        return y if len(i) < 3 or i[2] is None else y + a.get("beta", 1.0) * i[2]
    if op == "Relu":
        return np.maximum(i[0], 0)
    if op == "Softmax":
        x = i[0]
        axis = a.get("axis", 1 if opset < 13 else -1) % x.ndim
        if opset < 13:
            f = x.reshape(int(np.prod(x.shape[:axis])), -1)
            e = np.exp(f - f.max(axis=1, keepdims=True))
            return (e / e.sum(axis=1, keepdims=True)).reshape(x.shape)
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)
    if op == "BatchNormalization":
        x, g, b, m, v = i
        shape = [1, -1] + [1] * (x.ndim - 2)
        eps = np.float64(np.float32(a.get("epsilon", 1e-5)))
        return (x - m.reshape(shape)) / np.sqrt(v.reshape(shape) + eps) * g.reshape(shape) + b.reshape(shape)
    if op == "Shape":
        return np.array(i[0].shape, dtype=np.int64)
    if op == "Gather":
        return np.take(i[0], i[1], axis=a.get("axis", 0))
    if op == "Unsqueeze":
        axes = a["axes"] if "axes" in a else list(i[1])
        return np.expand_dims(i[0], tuple(axes))
    if op == "Concat":
        return np.concatenate(i, axis=a["axis"])
    if op == "Reshape":
        shape = [d if d != 0 else i[0].shape[k] for k, d in enumerate(i[1])]
        return i[0].reshape(shape)
    if op == "Flatten":
        ax = a.get("axis", 1)
        return i[0].reshape(int(np.prod(i[0].shape[:ax])), -1)
    if op == "Transpose":
        return np.transpose(i[0], a.get("perm"))
    raise NotImplementedError(op)


if __name__ == "__main__":
    m = onnx.load(sys.argv[1])
    np.save(sys.argv[3], run(m, np.load(sys.argv[2])))
