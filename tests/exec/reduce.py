#!/usr/bin/python3
"""Expected values of reduce.otir, computed with NumPy independently of otir.

otir.reduce folds in ascending index order with the element-wise op of its
kind: integer adds wrap to the element type (NumPy's fixed-width integers do
the same), max/min compare by the type's signedness, and float adds round to
the element type after each step (a sequential loop in float32, not NumPy's
pairwise sum). Run: /usr/bin/python3 tests/exec/reduce.py (the Debian Python, which
has NumPy), which prints the RUN and CHECK lines of reduce.otir.
"""
import numpy as np

x = np.array([[100, 90, -7, 33], [-128, -1, 127, 5], [64, 64, 64, -64]], dtype=np.int8)
u = np.array([7, 250, 128, 3], dtype=np.uint8)
f = np.array([1e8, 1.0, -1e8, 0.5], dtype=np.float32)

with np.errstate(over="ignore"):
    rows = np.add.reduce(x, axis=1, dtype=np.int8)
    cols = np.add.reduce(x, axis=0, dtype=np.int8)
maxs = x.max(axis=1)
mins = x.min(axis=0)
umax = u.max()
acc = np.float32(f[0])
for v in f[1:]:
    acc = np.float32(acc + v)


def fmt(a):
    return "[" + ", ".join(str(int(v)) for v in a) + "]"


print("// RUN: otir-run %s --arg 'x=" + str(x.tolist()) + "' --arg 'u=" + fmt(u) + "' --arg 'f=[1e8, 1.0, -1e8, 0.5]' --print | FileCheck %s")
print("// CHECK: %rows = dense<" + fmt(rows) + "> : !otir.tile<3xi8, #global>")
print("// CHECK-NEXT: %cols = dense<" + fmt(cols) + "> : !otir.tile<4xi8, #global>")
print("// CHECK-NEXT: %maxs = dense<" + fmt(maxs) + "> : !otir.tile<3xi8, #global>")
print("// CHECK-NEXT: %mins = dense<" + fmt(mins) + "> : !otir.tile<4xi8, #global>")
print("// CHECK-NEXT: %umax = dense<[" + str(int(umax)) + "]> : !otir.tile<1xu8, #global>")
print("// CHECK-NEXT: %fsum = dense<[" + repr(float(acc)) + "]> : !otir.tile<1xf32, #global>")
