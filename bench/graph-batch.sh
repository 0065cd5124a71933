#!/bin/bash
# One process for a batch against one process per sample (BENCHMARKS.md,
# "Batches of an nn graph"): runs the quantized alkaid MLP
# (tests/nn/Inputs/alkaid-mlp-q.mlir) on the 1000 samples of
# ../shared/conformance/alir/alkaid-mlp/inputs.txt, once as one batch
# [1000, 16] and once as 1000 runs of one sample [16], prints the wall and
# CPU seconds of each and checks that both give the same outputs.
#
#   bench/graph-batch.sh [SAMPLES]      (default 1000, at most 1000)
#
# CONF defaults to ../shared/conformance/alir/alkaid-mlp. Needs
# /usr/bin/python3 with NumPy (to cut the samples into .npy files).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000}
D=${CONF:-../shared/conformance/alir/alkaid-mlp}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
go build -o "$T/" ./cmd/otir-run
/usr/bin/python3 - "$D/inputs.txt" "$T" "$N" <<'PY'
import sys, numpy as np
x = np.loadtxt(sys.argv[1])[: int(sys.argv[3])]
np.save(f"{sys.argv[2]}/x.npy", x)
for i, row in enumerate(x):
    np.save(f"{sys.argv[2]}/x{i}.npy", row)
PY
G=tests/nn/Inputs/alkaid-mlp-q.mlir P=$D/params.npz
/usr/bin/time -f "%e %U %S" -o "$T/batch.time" "$T/otir-run" "$G" --params "$P" --input "$T/x.npy" > "$T/batch.txt"
/usr/bin/time -f "%e %U %S" -o "$T/each.time" bash -c '
  for ((i = 0; i < $1; i++)); do "$2/otir-run" "$3" --params "$4" --input "$2/x$i.npy"; done' _ "$N" "$T" "$G" "$P" > "$T/each.txt"
report() { awk -v what="$1" '{printf "%s: %.2f s wall, %.2f s CPU\n", what, $1, $2 + $3}' "$2"; }
report "one process, a batch of $N" "$T/batch.time"
report "$N processes, one sample each" "$T/each.time"
if sed 's/^%6\[[0-9]*\]/%6/' "$T/batch.txt" | cmp -s - "$T/each.txt"; then
  echo "outputs: the batch's lines are the $N runs' lines"
else
  echo "outputs differ" >&2
  exit 1
fi
