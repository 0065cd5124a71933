#!/usr/bin/python3
"""A trained jet-tagging MLP with a final softmax (issue 28, docs/nn.md
"nn-quantize"): hls4ml's 16-64-32-32-5 ReLU MLP, trained in PyTorch on
synthetic jet-like data until its logits reach tens, as trained taggers'
do (the case that a softmax without its maximum subtracted destroys).

The data: five classes (g, q, W, Z, t) of 16 features, each class a
Gaussian around its own centre with a shared random correlation, a
log-normal "mass" and "multiplicity" pair and two features that are
products of others, standardised as hls4ml's examples do. Seeded: the
same files on every run (torch's CPU kernels on one thread).

Run from this directory with /usr/bin/python3 gen.py; it writes
  model.onnx    the network, Softmax included (opset 13, batch 1);
  calib.npy     [512, 1, 16] float32: training rows, for calibration=;
  test.npy      [256, 1, 16] float32: held-out rows;
  probs.npy     [256, 1, 5] float64: PyTorch's float32 probabilities of
                the held-out rows;
and prints the training figures (accuracy, the largest |logit|)."""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(28)
torch.set_num_threads(1)
rng = np.random.default_rng(28)

N_FEAT, N_CLASS = 16, 5
N_TRAIN, N_CALIB, N_TEST = 4000, 512, 256


def jets(n):
    """n rows of synthetic jet features and their classes."""
    centres = rng.normal(0, 1.2, size=(N_CLASS, N_FEAT))
    mix = rng.normal(0, 0.35, size=(N_FEAT, N_FEAT)) + np.eye(N_FEAT)
    y = rng.integers(0, N_CLASS, size=n)
    x = centres[y] + rng.normal(0, 1, size=(n, N_FEAT)) @ mix
    mass = np.array([5, 10, 80, 91, 173], dtype=float)[y]
    x[:, 0] = np.log(mass * rng.lognormal(0, 0.25, size=n))
    x[:, 1] = np.log1p(rng.poisson(8 + 6 * y))
    x[:, 2] = x[:, 3] * x[:, 4]
    x[:, 5] = np.tanh(x[:, 6]) * x[:, 0]
    return x, y


x, y = jets(N_TRAIN + N_TEST)
mean, std = x[:N_TRAIN].mean(0), x[:N_TRAIN].std(0)
x = ((x - mean) / std).astype(np.float32)
xt, yt = torch.from_numpy(x[:N_TRAIN]), torch.from_numpy(y[:N_TRAIN])
xh, yh = torch.from_numpy(x[N_TRAIN:]), torch.from_numpy(y[N_TRAIN:])

model = nn.Sequential(
    nn.Linear(N_FEAT, 64), nn.ReLU(),
    nn.Linear(64, 32), nn.ReLU(),
    nn.Linear(32, 32), nn.ReLU(),
    nn.Linear(32, N_CLASS),
)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.CrossEntropyLoss()
# Train until the logits reach realistic magnitudes (tens): full-batch
# Adam drives a separable training set's logits up.
for epoch in range(3000):
    opt.zero_grad()
    logits = model(xt)
    loss = loss_fn(logits, yt)
    loss.backward()
    opt.step()
    peak = logits.detach().abs().max().item()
    if peak >= 35 and epoch >= 500:
        break

model.eval()
with torch.no_grad():
    lt, lh = model(xt), model(xh)
    probs = torch.softmax(lh, dim=1)
acc_t = (lt.argmax(1) == yt).float().mean().item()
acc_h = (lh.argmax(1) == yh).float().mean().item()
print(f"epochs {epoch + 1}, loss {loss.item():.4g}, train accuracy {acc_t:.3f}, held-out accuracy {acc_h:.3f}")
print(f"largest |logit|: training {lt.abs().max().item():.1f}, held-out {lh.abs().max().item():.1f}")

full = nn.Sequential(model, nn.Softmax(dim=1))
torch.onnx.export(full, xt[:1], "model.onnx", input_names=["x"], output_names=["p"],
                  opset_version=13)
np.save("calib.npy", x[:N_CALIB].reshape(N_CALIB, 1, N_FEAT))
np.save("test.npy", x[N_TRAIN:].reshape(N_TEST, 1, N_FEAT))
np.save("probs.npy", probs.numpy().astype(np.float64).reshape(N_TEST, 1, N_CLASS))
