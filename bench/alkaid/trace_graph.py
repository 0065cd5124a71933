"""Trace a quantized nn graph (otir's nn-quantize output) with alkaid, as the same integer network.

usage: alkaid-py trace_graph.py GRAPH.q.mlir PARAMS.npz ROWS.txt OUT_DIR   (alkaid 5ad1e53, /work/ref)

GRAPH is a chain of nn.linear / nn.relu / nn.requantize ending in nn.return, printed by
`otir-opt --pass-pipeline='builtin.module(nn-quantize{...})'`. Every number is taken from it:
the argument's type (alkaid: FVArrayInput.quantize(k, i, f)), each linear's weight_type and
bias_type (weights and biases rounded to them as otir rounds parameters: nearest, ties to
even, saturated to the type), each requantize's type, rounding (FLOOR -> TRN) and overflow
(saturate -> SAT, wrap -> WRAP). Linear outputs and relus are exact in both tools.

Writes OUT_DIR/alkaid.json.gz (CombLogic.save, default solver options) and
OUT_DIR/alkaid-out.txt (CombLogic.predict of ROWS, %.17g), and prints the opcode counts.
"""

import math
import os
import re
import sys
import time

import numpy as np

from alkaid.trace import FVArrayInput, trace

UNIFORM = re.compile(r'!quant\.uniform<([iu])(\d+):f64, ([0-9.eE+-]+)>')


def kif(t):
    """(k, i, f) of a !quant.uniform<iW/uW:f64, 2^-f> type."""
    m = UNIFORM.search(t)
    if not m:
        raise SystemExit(f'not a power-of-two uniform type: {t!r}')
    k, w, scale = int(m[1] == 'i'), int(m[2]), float(m[3])
    f = -int(round(math.log2(scale)))
    if 2.0**-f != scale:
        raise SystemExit(f'scale {scale} is not a power of two')
    return k, w - k - f, f


def round_to(v, t):
    """v rounded to type t as otir rounds parameters: nearest, ties to even, saturated."""
    k, i, f = kif(t)
    lo, hi = (-(2 ** (i + f)), 2 ** (i + f) - 1) if k else (0, 2 ** (i + f) - 1)
    return np.clip(np.round(np.asarray(v, np.float64) * 2.0**f), lo, hi) * 2.0**-f


def main():
    graph, params, rows, out = sys.argv[1:5]
    os.makedirs(out, exist_ok=True)
    text = open(graph).read()
    P = np.load(params)
    arg = re.search(r'nn\.graph @\w+\((%\w+): tensor<[0-9x]*x(!quant\.uniform<[^>]*>)>', text)
    n_in = int(re.search(r'tensor<1x(\d+)x!quant', arg[0])[1])
    x = FVArrayInput((n_in,)).quantize(*kif(arg[2]))
    vals = {arg[1]: x}
    y = None
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r'(%\w+) = (nn\.\w+) (%\w+)(.*)', line)
        if line.startswith('nn.return'):
            y = vals[line.split()[1]]
            break
        if not m:
            continue
        res, op, src, rest = m.groups()
        a = vals[src]
        if op == 'nn.linear':
            key = re.search(r'params = "([^"]+)"', rest)[1]
            wt = re.search(r'weight_type = (!quant\.uniform<[^>]*>)', rest)[1]
            bt = re.search(r'bias_type = (!quant\.uniform<[^>]*>)', rest)[1]
            W, b = round_to(P[key + '.weight'], wt), round_to(P[key + '.bias'], bt)
            vals[res] = a @ W.T + b
        elif op == 'nn.relu':
            vals[res] = a.relu()
        elif op == 'nn.requantize':
            rnd = re.search(r'rounding = "(\w+)"', rest)[1]
            ovf = re.search(r'overflow = "(\w+)"', rest)[1]
            if rnd != 'FLOOR':
                raise SystemExit(f'{res}: rounding {rnd}: only FLOOR (alkaid TRN) is traced here')
            t = re.search(r'-> tensor<[0-9x]*x(!quant\.uniform<[^>]*>)>', rest)[1]
            vals[res] = a.quantize(*kif(t), overflow_mode={'saturate': 'SAT', 'wrap': 'WRAP'}[ovf], round_mode='TRN')
        else:
            raise SystemExit(f'{res}: {op} is not traced here')
    t0, c0 = time.time(), time.process_time()
    comb = trace(x, y)
    t1, c1 = time.time(), time.process_time()
    comb.save(os.path.join(out, 'alkaid.json.gz'))
    X = np.loadtxt(rows, ndmin=2)
    np.savetxt(os.path.join(out, 'alkaid-out.txt'), comb.predict(X), fmt='%.17g')
    ops, cnt = np.unique([o.opcode for o in comb.ops], return_counts=True)
    counts = dict(zip(ops.tolist(), cnt.tolist()))
    adders = sum(counts.get(c, 0) for c in (0, 1, -2))
    print(f'alkaid: {len(comb.ops)} ops {counts}; adders (0, 1, -2) {adders}; '
          f'trace+solve {t1 - t0:.2f} s wall, {c1 - c0:.2f} s CPU')


main()
