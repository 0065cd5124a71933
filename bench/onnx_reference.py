"""The reference outputs of an ONNX model on one random input, computed
node by node in float64 by tests/qonnx/Inputs/gen.py's evaluate (ONNX's and
QONNX's semantics transcribed in Python, independent of otir's importer
and evaluator).

    /usr/bin/python3 bench/onnx_reference.py MODEL.onnx X.npy REF.npy

writes the input (uniform in [-2, 2], seed 0, the graph input's shape) to
X.npy and the graph's first output to REF.npy."""
import os
import sys

import numpy as np
import onnx

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "qonnx", "Inputs"))
import gen  # noqa: E402

model = onnx.load(sys.argv[1])
inits = {t.name for t in model.graph.initializer}
arg = [i for i in model.graph.input if i.name not in inits][0]
shape = [d.dim_value for d in arg.type.tensor_type.shape.dim]
x = np.random.default_rng(0).uniform(-2, 2, shape)
np.save(sys.argv[2], x)
np.save(sys.argv[3], gen.evaluate(model, x, gen.Float64))
