# Writes params.npz for ../../dead-signal.lit: fc1 makes lane 1 negative for
# every input (the input type is unsigned, the row and bias are negative),
# so the relu after it is the constant 0 there; fc1 ignores input 2 (a zero
# column); fc2's output 1 reads only lane 1. Run: /usr/bin/python3 gen.py
import numpy as np

np.savez(
    "params.npz",
    **{
        "fc1.weight": np.array([[1.0, 0.5, 0.0], [-1.0, -0.5, 0.0]]),
        "fc1.bias": np.array([0.25, -0.25]),
        "fc2.weight": np.array([[1.0, 0.0], [0.0, 2.0]]),
        "fc2.bias": np.array([0.0, 0.5]),
    },
)
