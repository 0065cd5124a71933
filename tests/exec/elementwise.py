#!/usr/bin/python3
"""Expected values of elementwise.otir, computed with NumPy independently of
otir.

Design section 4: an operation computes the exact result of its operand
values and converts it to the result type. Here: i8 - i8 is exact in i9;
abs of -128 is 128, which wraps to -128 in i8 (NumPy's int8 abs does the
same); and, or, xor and not act on two's complement bits; div_u is the
floor of unsigned operands; shr_s shifts arithmetically, shr_u logically;
exp, log and sqrt of f32 are computed in float64 and rounded to f32 once;
transpose permutes the axes; insert_slice writes a 1x2 tile at [1, 1].
Run: /usr/bin/python3 tests/exec/elementwise.py (the Debian Python, which
has NumPy), which prints the RUN and CHECK lines of elementwise.otir.
"""
import numpy as np

x = np.array([-128, -7, -1, 0, 1, 5, 100, 127], dtype=np.int8)
y = np.array([127, 3, -1, -128, 1, -6, 27, -1], dtype=np.int8)
u = np.array([0, 1, 7, 100, 128, 200, 254, 255], dtype=np.uint8)
v = np.array([1, 2, 3, 7, 255, 16, 9, 1], dtype=np.uint8)
s = np.array([0, 1, 2, 3, 4, 5, 6, 7], dtype=np.uint8)
f = np.array([0.5, 1.0, 2.0, 10.0], dtype=np.float32)
m = np.array([[1, 2, 3, 4], [-5, -6, -7, -8]], dtype=np.int8)
w = np.array([99, -99], dtype=np.int8)

ins = m.copy()
ins[1, 1:3] = w
with np.errstate(over="ignore"):
    results = [
        ("sub", x.astype(np.int16) - y.astype(np.int16), "8xi9"),
        ("abs", np.abs(x), "8xi8"),
        ("and", x & y, "8xi8"),
        ("or", x | y, "8xi8"),
        ("xor", x ^ y, "8xi8"),
        ("not", ~x, "8xi8"),
        ("divu", u // v, "8xu8"),
        ("shrs", x >> s.astype(np.int8), "8xi8"),
        ("shru", u >> s, "8xu8"),
        ("max", np.maximum(x, y), "8xi8"),
        ("exp", np.exp(f.astype(np.float64)).astype(np.float32), "4xf32"),
        ("log", np.log(f.astype(np.float64)).astype(np.float32), "4xf32"),
        ("sqrt", np.sqrt(f.astype(np.float64)).astype(np.float32), "4xf32"),
        ("tr", m.T, "4x2xi8"),
        ("ins", ins, "2x4xi8"),
    ]


def text(a):
    if a.ndim > 1:
        return "[" + ", ".join(text(r) for r in a) + "]"
    if a.dtype.kind == "f":
        return "[" + ", ".join(repr(float(e)) for e in a) + "]"
    return "[" + ", ".join(str(int(e)) for e in a) + "]"


def arg(name, a):
    return "--arg '" + name + "=" + text(a) + "'"


print("// RUN: otir-run %s " + " ".join(arg(n, a) for n, a in
      [("x", x), ("y", y), ("u", u), ("v", v), ("s", s), ("f", f), ("m", m), ("w", w)]) + " --print | FileCheck %s")
for i, (name, a, t) in enumerate(results):
    check = "CHECK" if i == 0 else "CHECK-NEXT"
    # FileCheck reads "[[" as a variable: the first bracket is a regex.
    print("// " + check + ": %" + name + " = dense<" + text(a).replace("[[", "{{\\[}}[", 1) + "> : !otir.tile<" + t + ", #global>")
