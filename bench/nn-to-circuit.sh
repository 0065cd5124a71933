#!/bin/bash
# otir against alkaid on the quantized MLP of ../shared/conformance/alir/alkaid-mlp
# (BENCHMARKS.md, "A quantized MLP as a circuit"): lowers the quantized graph
# with otir-opt's nn-to-circuit pipeline ROUNDS times (default 5), prints the
# median wall and CPU time, checks the program against alkaid's outputs with
# the reference interpreter, and prints the adders/depth table.
#
#   bench/nn-to-circuit.sh [ROUNDS] [PIPELINE-OPTIONS]
#
# PIPELINE-OPTIONS go inside nn-to-circuit{...}, e.g. 'max-adder-depth=0'.
# CONF defaults to ../shared/conformance/alir/alkaid-mlp, REF to /work/ref/bin;
# SVG=/abs/path.svg also draws the adders at each adder depth (docs/nn-to-circuit-depth.svg).
set -euo pipefail
cd "$(dirname "$0")/.."
R=${1:-5} O=${2:-}
D=${CONF:-../shared/conformance/alir/alkaid-mlp}
REF=${REF:-/work/ref/bin}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
go build -o "$T/" ./cmd/otir-opt
for _ in $(seq "$R"); do
  /usr/bin/time -f "%e %U %S" -a -o "$T/times" "$T/otir-opt" tests/nn/Inputs/alkaid-mlp-q.mlir \
    --params "$D/params.npz" --pass-pipeline="builtin.module(nn-to-circuit{$O})" --emit=alir-v4-json -o "$T/m.json"
done
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
echo "otir-opt nn-to-circuit: $(awk '{print $1}' "$T/times" | median) s wall, $(awk '{print $2+$3}' "$T/times" | median) s CPU (median of $R)"
if "$REF/alir_v4_run" "$T/m.json" "$D/inputs.txt" | cmp - "$D/expected.txt"; then
  echo "alir_v4_run: otir's program prints alkaid's expected.txt byte for byte"
else
  echo "alir_v4_run: otir's program differs from expected.txt" >&2
  exit 1
fi
OTIR_NNCIRCUIT_PROGRAM="$T/m.json" OTIR_NNCIRCUIT_SVG="${SVG:-}" go test ./bench/nncircuit -run Figures -v -count=1 | sed -n 's/^ *figures_test.go:[0-9]*: //p'
