#!/usr/bin/python3
"""Writes lookup.otir: otir.lookup's tables and expected values, computed
with NumPy independently of otir.

otir.lookup's result for x is table[x - min], min the least value of x's
type (entry j is for the type's j-th value in ascending order). The tables
tabulate fixed-point functions as a quantized network's do: the input's
stored integer q means q * 2^-F_in, the output stores floor(f(v) * 2^F_out)
(ALIR's quantization). Run: /usr/bin/python3 tests/exec/lookup.py > tests/exec/lookup.otir
"""
import numpy as np


def tabulate(signed, width, frac_in, frac_out, f):
    lo = -(1 << (width - 1)) if signed else 0
    q = np.arange(lo, lo + (1 << width), dtype=np.int64)
    return lo, np.floor(f(q * 2.0**-frac_in) * 2.0**frac_out).astype(np.int64)


# tanh over i4 at scale 2^-2 into i6 at scale 2^-4.
tanh_lo, tanh = tabulate(True, 4, 2, 4, np.tanh)
# 1/(1+v) over u3 at scale 1 into u5 at scale 2^-4.
inv_lo, inv = tabulate(False, 3, 0, 4, lambda v: 1 / (1 + v))
# the square of v over i2 into u4 (a scalar lookup).
sq_lo, sq = tabulate(True, 2, 0, 0, lambda v: v * v)
# the parity of a u5 value (tanh's output, read as u5) into i1.
par_lo, par = 0, np.arange(32, dtype=np.int64) % 2

x = np.array([-8, -3, -1, 0, 1, 2, 5, 7], dtype=np.int64)
u = np.array([0, 1, 2, 3, 4, 5, 6, 7], dtype=np.int64)
s = -2

y_tanh = tanh[x - tanh_lo]
y_inv = inv[u - inv_lo]
y_sq = sq[s - sq_lo]
y_par = par[(y_inv - par_lo)]  # inv's values (0..16) fit u5


def fmt(a):
    return "[" + ", ".join(str(int(v)) for v in a) + "]"


def fmt_bool(a):
    return "[" + ", ".join("true" if v else "false" for v in a) + "]"


print(f"""// otir.lookup reads table[x - min(type of x)] element by element, on tiles
// and scalars, signed and unsigned inputs and results. The tables and the
// expected values come from NumPy: tests/exec/lookup.py writes this file.
// RUN: otir-run %s --arg 'x={fmt(x)}' --arg 'u={fmt(u)}' --arg 's={s}' --print | FileCheck %s
// CHECK: %t = dense<{fmt(y_tanh)}> : !otir.tile<8xi6, #global>
// CHECK-NEXT: %r = dense<{fmt(y_inv)}> : !otir.tile<8xu5, #global>
// CHECK-NEXT: %p = dense<{fmt_bool(y_par)}> : !otir.tile<8xi1, #global>
// CHECK-NEXT: %q = dense<[{int(y_sq)}]> : !otir.tile<1xu4, #global>

otir.kernel @lookups(%x: !otir.tile<8xi4, #global>, %u: !otir.tile<8xu3, #global>, %s: i2, %t: !otir.tile<8xi6, #global>, %r: !otir.tile<8xu5, #global>, %p: !otir.tile<8xi1, #global>, %q: !otir.tile<1xu4, #global>) {{
  %xv = otir.load %x : !otir.tile<8xi4, #global> -> !otir.tile<8xi4, #private>
  %tv = otir.lookup %xv, table(dense<{fmt(tanh)}> : tensor<16xi6>) : !otir.tile<8xi4, #private> -> !otir.tile<8xi6, #private>
  otir.store %tv, %t : !otir.tile<8xi6, #private>, !otir.tile<8xi6, #global>
  %uv = otir.load %u : !otir.tile<8xu3, #global> -> !otir.tile<8xu3, #private>
  %rv = otir.lookup %uv, table(dense<{fmt(inv)}> : tensor<8xu5>) : !otir.tile<8xu3, #private> -> !otir.tile<8xu5, #private>
  otir.store %rv, %r : !otir.tile<8xu5, #private>, !otir.tile<8xu5, #global>
  %pv = otir.lookup %rv, table(dense<{fmt(par)}> : tensor<32xi1>) : !otir.tile<8xu5, #private> -> !otir.tile<8xi1, #private>
  otir.store %pv, %p : !otir.tile<8xi1, #private>, !otir.tile<8xi1, #global>
  %qs = otir.lookup %s, table(dense<{fmt(sq)}> : tensor<4xu4>) : i2 -> u4
  %one = otir.constant dense<true> : !otir.tile<1xi1, #private>
  %qv = otir.select %one, %qs, %qs : (!otir.tile<1xi1, #private>, u4, u4) -> !otir.tile<1xu4, #private>
  otir.store %qv, %q : !otir.tile<1xu4, #private>, !otir.tile<1xu4, #global>
  otir.return
}}""")
