#!/bin/bash
# Area against depth, otir against alkaid, on two networks (BENCHMARKS.md,
# "Area against alkaid: networks"; docs/pareto-*.svg):
#   alkaid-mlp  ../shared/conformance/alir/alkaid-mlp (alkaid's own program)
#   jet         tests/nn/Inputs/jet without its softmax (the logits), quantized by
#               nn-quantize{calibration, act-bits=10, input-bits=10, 8-bit weights},
#               traced by alkaid as the same integer network (bench/alkaid/trace_graph.py)
# otir's points: nn-to-circuit with max-adder-depth=-1 and adder-depth-slack 0..6,
# and max-adder-depth=0 (unconstrained). Adders and adder depth are otir-run info's
# (docs/alir.md "What info counts": the same words for both tools). Every otir circuit
# is checked against alkaid's outputs on the same rows, bit for bit.
#
#   bench/pareto.sh            writes bench/pareto.tsv, prints it
#   YOSYS=1 bench/pareto.sh    also LUTs by yosys (synth_xilinx -flatten; minutes a point)
#
# Needs /work/ref (alkaid-py, alir_v4_run: ../shared/reference-tools) and /usr/bin/python3
# with numpy. Then: go test ./bench/nncircuit -run ParetoPictures -update
set -euo pipefail
cd "$(dirname "$0")/.."
REF=${REF:-/work/ref/bin}
CONF=../shared/conformance/alir/alkaid-mlp
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
go build -o "$T/" ./cmd/otir-opt ./cmd/otir-run ./cmd/otir-translate
# The jet network without its softmax, quantized once, and alkaid's program of it.
REF=$REF bench/alkaid/jet.sh "$T" "$T/jet"
JETQ=$(cat "$T/jet/options")

luts() { # LUTs of a program's Verilog by yosys, or "-"
  if [ -z "${YOSYS:-}" ]; then echo -; return; fi
  "$T/otir-run" convert "$1" "$T/d.v" --name d >/dev/null
  (cd "$T" && bash "$OLDPWD/scripts/rtl-area.sh" d d.v) | sed -n 's/.*LUTs \([0-9]*\),.*/\1/p'
}
row() { # network tool option program
  local info
  info=$("$T/otir-run" info "$4")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" \
    "$(sed -n 's/^counts: *\([0-9]*\) adders.*/\1/p' <<<"$info")" \
    "$(sed -n 's/^adder depth: *\([0-9]*\).*/\1/p' <<<"$info")" "$(luts "$4")"
}
same() { # program rows expected: otir's outputs are alkaid's, bit for bit
  "$T/otir-run" "$1" --input "$2" --output "$T/out.txt"
  /usr/bin/python3 -c "
import numpy as np, sys
a, b = np.loadtxt('$T/out.txt'), np.loadtxt('$3')
sys.exit(0 if np.array_equal(a, b[:len(a)]) else 'otir $1 differs from alkaid on $2')"
}
OUT=bench/pareto.tsv
printf 'network\ttool\toption\tadders\tdepth\tluts\n' > "$OUT"
row alkaid-mlp alkaid "5ad1e53 default" $CONF/model-v4.json.gz >> "$OUT"
row jet alkaid "5ad1e53 default" "$T/jet/alkaid/alkaid.json.gz" >> "$OUT"
for opt in "max-adder-depth=-1" $(for s in 1 2 3 4 6; do echo "adder-depth-slack=$s"; done) "max-adder-depth=0"; do
  "$T/otir-opt" tests/nn/Inputs/alkaid-mlp-q.mlir --params $CONF/params.npz \
    --pass-pipeline="builtin.module(nn-to-circuit{$opt})" --emit=alir-v4-json -o "$T/m.json"
  same "$T/m.json" $CONF/inputs.txt $CONF/expected.txt
  row alkaid-mlp otir "$opt" "$T/m.json" >> "$OUT"
  "$T/otir-opt" "$T/jet/jet.mlir" --params "$T/jet/jet.npz" \
    --pass-pipeline="builtin.module(nn-to-circuit{$JETQ $opt})" --emit=alir-v4-json -o "$T/j.json"
  same "$T/j.json" "$T/jet/rows.txt" "$T/jet/alkaid/alkaid-out.txt"
  row jet otir "$opt" "$T/j.json" >> "$OUT"
done
cat "$OUT"
