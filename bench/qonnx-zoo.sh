#!/bin/bash
# The QONNX model zoo's MLPs through otir (BENCHMARKS.md, "QONNX models";
# docs/qonnx.md): for each model of ZOO_DIR (the .onnx files of
# fastmachinelearning/qonnx_model_zoo, which are not in this repository),
#   1. otir-translate --import-onnx;
#   2. otir-run on the imported graph (the float evaluator) for S samples on
#      the model's input grid (default 32);
#   3. nn-to-circuit{input-type=... [drop-final-softmax=true]} to ALIR v4
#      JSON, timed (wall and CPU seconds);
#   4. otir-run on the circuit for the same samples (TFC: then its float
#      tail, tail=FILE, by otir-run as the host applies it), compared with
#      the evaluator's outputs (the softmax's operand for the jet tagger);
#   5. adders and adder depth (bench/nncircuit), and for the jet tagger (all
#      circuits with YOSYS_ALL=1) the Verilog's yosys synth_xilinx -flatten
#      LUTs (scripts/rtl-area.sh).
#
#   bench/qonnx-zoo.sh ZOO_DIR [S]
#
# Needs /usr/bin/python3 with numpy (the samples) and yosys (the LUTs).
set -euo pipefail
ZOO=$(cd "${1:?usage: bench/qonnx-zoo.sh ZOO_DIR [SAMPLES]}" && pwd)
S=${2:-32}
cd "$(dirname "$0")/.."
ROOT=$(pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
go build -o "$T/" ./cmd/otir-translate ./cmd/otir-opt ./cmd/otir-run
PATH=$T:$PATH
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"

# model file, input type (ap_fixed convention), nn-to-circuit options
models=(
  "qkeras_jettagging fixed<16,6> drop-final-softmax=true"
  "unsw_nb15-mlp-w2a2 ufixed<1,1>"
  "TFC_2W2A ufixed<8,0>"
  "TFC_1W2A ufixed<8,0>"
  "TFC_1W1A ufixed<8,0>"
  "kwsmlp_w3a3 fixed<16,8>"
)
programs=""
for spec in "${models[@]}"; do
  read -r m itype extra <<<"$spec"
  f="$ZOO/$m.onnx"
  [ -f "$f" ] || { echo "== $m: $f not found, skipped"; continue; }
  echo "== $m (input-type=$itype${extra:+ $extra})"
  d="$T/$m"
  mkdir -p "$d"
  otir-translate --import-onnx "$f" -o "$d/g.mlir" --params-out "$d/p.npz"
  echo "import: $(grep -c ' = nn\.' "$d/g.mlir") nodes"
  # S samples on the input grid: W bits, I integer bits, signed for fixed
  /usr/bin/python3 - "$d" "$itype" "$S" "$f" <<'EOF'
import re, sys
import numpy as np
import onnx
d, itype, n, f = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
g = onnx.load(f).graph
inits = {t.name for t in g.initializer}
shape = [x.dim_value for x in [i for i in g.input if i.name not in inits][0].type.tensor_type.shape.dim]
kind, w, i = re.match(r"(u?fixed)<(\d+),(\d+)>", itype).groups()
w, i = int(w), int(i)
lo, hi = (-(2 ** (w - 1)), 2 ** (w - 1) - 1) if kind == "fixed" else (0, 2**w - 1)
rng = np.random.default_rng(1)
q = rng.integers(lo, hi + 1, size=[n] + shape) if w <= 8 else np.clip(np.round(rng.normal(0, 2 ** (w - i), size=[n] + shape)), lo, hi)
xs = q.astype(np.float64) * 2.0 ** (i - w)
for k in range(n):
    np.save(f"{d}/x{k}.npy", xs[k])
np.savetxt(f"{d}/rows.txt", xs.reshape(n, -1), fmt="%.17g")
EOF
  soft=$(sed -n 's/.*= nn\.softmax %\([0-9a-z_]*\).*/\1/p' "$d/g.mlir")
  for k in $(seq 0 $((S - 1))); do
    otir-run "$d/g.mlir" --params "$d/p.npz" --input "$d/x$k.npy" --output "$d/y$k.npy" --all-values "$d/v$k" >/dev/null
    [ -z "$soft" ] || cp "$d/v$k/$soft.npy" "$d/y$k.npy"
    rm -rf "$d/v$k"
  done
  echo "evaluate: $S samples"
  if ! /usr/bin/time -f "%e %U %S" -o "$d/time" otir-opt "$d/g.mlir" --params "$d/p.npz" \
    --pass-pipeline="builtin.module(nn-to-circuit{input-type=$itype${extra:+ $extra} tail=$d/tail.mlir})" --emit=alir-v4-json -o "$d/c.json" 2>"$d/err"; then
    echo "circuit: FAILED: $(head -1 "$d/err")"
    continue
  fi
  read -r wall user sys <"$d/time"
  echo "circuit: $wall s wall, $(awk -v u="$user" -v s="$sys" "BEGIN {print u + s}") s CPU"
  otir-run "$d/c.json" --input "$d/rows.txt" --output "$d/out.txt"
  if [ -f "$d/tail.mlir" ]; then # the float tail after the circuit (TFC), applied as the host does
    echo "host tail: $(grep -c ' = nn\.' "$d/tail.mlir") nodes"
    /usr/bin/python3 -c 'import sys, numpy as np
for k, r in enumerate(np.loadtxt(sys.argv[1] + "/out.txt", ndmin=2)): np.save(f"{sys.argv[1]}/c{k}.npy", r.reshape(1, -1))' "$d"
    for k in $(seq 0 $((S - 1))); do
      otir-run "$d/tail.mlir" --params "$d/p.npz" --input "$d/c$k.npy" --output "$d/t$k.npy"
    done
    /usr/bin/python3 -c 'import sys, numpy as np
np.savetxt(sys.argv[1] + "/out.txt", np.stack([np.load(f"{sys.argv[1]}/t{k}.npy").ravel() for k in range(int(sys.argv[2]))]), fmt="%.17g")' "$d" "$S"
  fi
  /usr/bin/python3 - "$d" "$S" <<'EOF'
import sys
import numpy as np
d, n = sys.argv[1], int(sys.argv[2])
ev = np.stack([np.load(f"{d}/y{k}.npy").ravel() for k in range(n)])
ci = np.loadtxt(f"{d}/out.txt", ndmin=2)
same = int(np.sum(ev == ci))
print(f"circuit vs evaluator: {same} of {ev.size} outputs identical, max |difference| {np.max(np.abs(ev - ci)):.3g}")
EOF
  programs="${programs:+$programs,}$m=$d/c.json"
  if [ "$m" = qkeras_jettagging ] || [ -n "${YOSYS_ALL:-}" ]; then
    otir-run convert "$d/c.json" "$d/$m.v"
    (cd "$d" && /usr/bin/time -f "yosys: %e s wall, %U s CPU" "$ROOT/scripts/rtl-area.sh" "$m" "$m.v")
  fi
done
[ -z "$programs" ] || OTIR_NNCIRCUIT_PROGRAMS="$programs" go test ./bench/nncircuit -run ProgramFigures -v -count=1 |
  sed -n 's/^ *figures_test.go:[0-9]*: //p'
