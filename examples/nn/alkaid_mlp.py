"""The alkaid-mlp network as a PyTorch model (docs/nn-to-circuit.md).

usage: python3 examples/nn/alkaid_mlp.py PARAMS.npz OUT_DIR

Builds the MLP 16-64-32-32-5 with ReLU in PyTorch, loads the parameters of
../shared/conformance/alir/alkaid-mlp/params.npz into it (a trained model
would come with its own), and writes OUT_DIR/mlp.npz (the payload: the
state_dict keyed by the graph's params names) and OUT_DIR/mlp.onnx (for
otir-translate --import-onnx). Prints the float model's outputs on the
first rows of inputs.txt if it sits beside PARAMS.npz.
"""

import os
import sys

import numpy as np
import torch

params, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
model = torch.nn.Sequential(
    torch.nn.Linear(16, 64), torch.nn.ReLU(),
    torch.nn.Linear(64, 32), torch.nn.ReLU(),
    torch.nn.Linear(32, 32), torch.nn.ReLU(),
    torch.nn.Linear(32, 5)).double().eval()
names = {'0': 'fc1', '2': 'fc2', '4': 'fc3', '6': 'fc4'}  # Sequential index -> graph params name


def key(k):
    layer, what = k.split('.')
    return f'{names[layer]}.{what}'


p = np.load(params)
model.load_state_dict({k: torch.tensor(p[key(k)]) for k in model.state_dict()})
np.savez(os.path.join(out, 'mlp.npz'), **{key(k): v.numpy() for k, v in model.state_dict().items()})
torch.onnx.export(model, torch.zeros(1, 16, dtype=torch.float64), os.path.join(out, 'mlp.onnx'))
inputs = os.path.join(os.path.dirname(params), 'inputs.txt')
if os.path.exists(inputs):
    with torch.no_grad():
        print(model(torch.tensor(np.loadtxt(inputs)[:2])).numpy())
