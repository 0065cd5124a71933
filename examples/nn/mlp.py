#!/usr/bin/python3
"""From PyTorch to otir (docs/nn.md, "From PyTorch to otir"): trains a small
MLP, exports it to ONNX and saves an input batch and PyTorch's output on it.

    /usr/bin/python3 examples/nn/mlp.py        # torch 1.13, onnx, numpy

writes, next to this script:
    mlp.onnx     the model (torch.onnx.export, opset 13, float64, batch of 8)
    x.npy        8 test points, float64 [8, 2]
    y_torch.npy  PyTorch's class probabilities on them, float64 [8, 2]

The task: is a point of the plane inside the unit circle? 2 inputs, 16
hidden units (ReLU), 2 classes (softmax). Training is deterministic (fixed
seeds, float64, one thread).
"""
import os

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)
torch.set_num_threads(1)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 16)
        self.fc2 = nn.Linear(16, 2)

    def forward(self, x):
        return torch.softmax(self.fc2(torch.relu(self.fc1(x))), dim=1)


def data(n):
    x = torch.rand(n, 2, dtype=torch.float64) * 3 - 1.5
    return x, (x.pow(2).sum(dim=1) < 1).long()


model = MLP().double()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
x_train, y_train = data(512)
for step in range(300):
    opt.zero_grad()
    loss = nn.functional.nll_loss(torch.log(model(x_train)), y_train)
    loss.backward()
    opt.step()
model.eval()
x_test, y_test = data(8)
with torch.no_grad():
    y = model(x_test)
print(f"loss {loss.item():.4f}, test labels {y_test.tolist()}, predicted {y.argmax(1).tolist()}")
torch.onnx.export(model, (x_test,), os.path.join(HERE, "mlp.onnx"), opset_version=13,
                  input_names=["x"], output_names=["probabilities"])
np.save(os.path.join(HERE, "x.npy"), x_test.numpy())
np.save(os.path.join(HERE, "y_torch.npy"), y.numpy())
