#!/usr/bin/python3
"""Checks qonnx_ref.py against QONNX's own reference functions, on the golden cases gen.py wrote.

Usage: /usr/bin/python3 tests/nn/Inputs/qonnx/check_upstream.py QONNX_REPO
where QONNX_REPO is a clone of fastmachinelearning/qonnx (a work tree or a bare git directory).
The functions min_int, max_int, int_quant, resolve_rounding_mode, binary_quant, trunc_v1 and
trunc_v2 are taken from its src/qonnx/custom_op/general/{intquant,bipolar_quant,trunc}.py (the
function definitions only, so the qonnx package need not be installed) and run on every
quantizer of the golden cases: QONNX's result, qonnx_ref.py's and the stored expected output
must be the same bytes.
"""
import ast
import glob
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import qonnx_ref as ref  # noqa: E402


def source(repo, name):
    path = f"src/qonnx/custom_op/general/{name}.py"
    if os.path.exists(os.path.join(repo, path)):
        with open(os.path.join(repo, path)) as f:
            return f.read()
    return subprocess.run(["git", "-C", repo, "show", f"HEAD:{path}"], check=True, capture_output=True, text=True).stdout


def upstream(repo):
    ns = {"np": np}
    for name in ["intquant", "bipolar_quant", "trunc"]:
        fns = [n for n in ast.parse(source(repo, name)).body if isinstance(n, ast.FunctionDef)]
        exec(compile(ast.Module(body=fns, type_ignores=[]), name, "exec"), ns)
    return ns


def main(repo):
    up, n = upstream(repo), 0
    for m in sorted(glob.glob(os.path.join(HERE, "..", "golden", "*.mlir"))):
        if not re.match(r"(quant_|bipolar_quant|trunc_)", os.path.basename(m)):
            continue
        io, p = np.load(m[:-5] + ".npz"), np.load(m[:-5] + ".params.npz")
        for i, line in enumerate(l for l in open(m) if "= nn." in l):
            kind = re.search(r"nn\.(\w+)", line).group(1)
            a = {k: v.strip('"') for k, v in re.findall(r'(\w+) = ("[^"]*"|\w+)', line.split("{")[1])}
            q, x, flag = a["params"], io[f"in{i}"], (lambda k: a[k] == "true")
            num = lambda k: np.array(float(a[k]))  # noqa: E731
            if kind == "quant":
                fn, args = "int_quant", (x, p[q + ".scale"], p[q + ".zero_point"], num("bits"), flag("signed"), flag("narrow"), a["rounding"])
            elif kind == "bipolar_quant":
                fn, args = "binary_quant", (x, p[q + ".scale"])
            elif a["version"] == "1":
                fn, args = "trunc_v1", (x, p[q + ".scale"], p[q + ".zero_point"], num("in_bits"), num("out_bits"), a["rounding"])
            else:
                fn, args = "trunc_v2", (x, p[q + ".scale"], p[q + ".zero_point"], num("in_bits"), flag("narrow"), flag("signed"),
                                        p[q + ".output_scale"], num("out_bits"), a["rounding"])
            theirs, ours = up[fn](*args), getattr(ref, fn)(*args)
            if not theirs.tobytes() == ours.tobytes() == io[f"out{i}"].tobytes():
                raise SystemExit(f"{os.path.basename(m)}: quantizer #{i} ({fn}) differs from QONNX's")
            n += 1
    print(f"{n} quantizers of the golden cases equal QONNX's own functions byte for byte")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
