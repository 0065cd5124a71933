#!/bin/bash
# hls4ml's example ONNX models (fastmachinelearning/example-models, its
# onnx/ folder; not in this repository: no licence is given) through otir:
# each imported by otir-translate, evaluated by otir-run on one random
# input and compared with bench/onnx_reference.py's float64 evaluation of
# the same file (tests/qonnx/Inputs/gen.py's transcription of ONNX and
# QONNX, independent of otir). Reports the import, otir-run's CPU seconds
# and memory, and the largest relative difference |y - ref| / (1 + |ref|).
#
#   bench/hls4ml-models.sh DIR      # DIR: example-models/onnx
#
# Needs /usr/bin/python3 with numpy and onnx. The U-Nets (256x256 and
# 512x512 images) take minutes each, in both tools.
set -euo pipefail
DIR=$(cd "${1:?usage: bench/hls4ml-models.sh DIR}" && pwd)
cd "$(dirname "$0")/.."
ROOT=$(pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
go build -o "$T/" ./cmd/otir-translate ./cmd/otir-run
PATH=$T:$PATH
echo "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), main $(git rev-parse --short HEAD)"
for f in "$DIR"/*.onnx; do
  m=$(basename "$f" .onnx)
  d="$T/$m"
  mkdir -p "$d"
  if ! otir-translate --import-onnx "$f" -o "$d/g.mlir" --params-out "$d/p.npz" 2>"$d/err"; then
    echo "$m: import error: $(head -1 "$d/err" | sed "s|$DIR/||")"
    continue
  fi
  /usr/bin/python3 "$ROOT/bench/onnx_reference.py" "$f" "$d/x.npy" "$d/ref.npy"
  if ! /usr/bin/time -f "%U %S %M" -o "$d/time" otir-run "$d/g.mlir" --params "$d/p.npz" --input "$d/x.npy" --output "$d/y.npy" 2>"$d/err"; then
    echo "$m: evaluation error: $(head -1 "$d/err")"
    continue
  fi
  read -r u s kb <"$d/time"
  /usr/bin/python3 - "$d" "$m" "$(grep -c ' = nn\.' "$d/g.mlir")" "$u" "$s" "$kb" <<'PY'
import sys
import numpy as np
d, m, nodes, u, s, kb = sys.argv[1:]
y, ref = np.load(f"{d}/y.npy"), np.load(f"{d}/ref.npy")
assert y.shape == ref.shape, (y.shape, ref.shape)
rel = float((np.abs(y - ref) / (1 + np.abs(ref))).max())
print(f"{m}: {nodes} nn nodes, output {list(y.shape)}; otir-run {float(u) + float(s):.2f} CPU-s, {int(kb) // 1024} MiB;"
      f" equal to the reference in {int((y == ref).sum())} of {y.size} values, largest relative difference {rel:.1e}")
PY
done
