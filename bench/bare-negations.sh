#!/usr/bin/env bash
# bare-negations.sh: BENCHMARKS.md, "Negated outputs of bias-free products"
# (issue 29). Random bias-free products (x·W stored as it is: 2-12 inputs,
# 2-12 outputs, weights of 4, 6 or 8 bits, seeds 1..N), lowered by an
# otir-opt binary:
#   1. lower-tiles{max-adder-depth=M+1} and {M+2}, then dais-optimize, M the
#      product's minimal adder tree: how many circuits otir-run info finds
#      deeper than the bound;
#   2. lower-tiles{max-adder-depth=-1}, dais-optimize, dais-rescale: how
#      many end above M, and their adders in all.
#
#   bench/bare-negations.sh OTIR_OPT [N]     (N kernels, default 150)
#
# Needs python3 (the kernels; no packages) and otir-run on PATH or beside
# OTIR_OPT.
set -euo pipefail
opt=$1 n=${2:-150}
run=$(dirname "$opt")/otir-run
[ -x "$run" ] || run=otir-run
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen() { # gen SEED: writes $work/k.otir, prints the minimal adder tree depth
  python3 - "$1" "$work/k.otir" <<'PY'
import math, random, sys
def csd_weight(v):
    v, n = abs(v), 0
    while v:
        if v & 1:
            n += 1
            v = (v + 1) >> 1 if v & 2 else v >> 1
        else:
            v >>= 1
    return n
random.seed(int(sys.argv[1]))
m, k, bits = random.randint(2, 12), random.randint(2, 12), random.choice([4, 6, 8])
w = [[random.randint(-(1 << (bits - 1)), (1 << (bits - 1)) - 1) for _ in range(m)] for _ in range(k)]
md = 0
for j in range(m):
    d = sum(csd_weight(w[i][j]) for i in range(k))
    if d >= 2:
        md = max(md, math.ceil(math.log2(d)))
rows = ", ".join("[" + ", ".join(map(str, r)) + "]" for r in w)
x, y, t = f"!otir.tile<1x{k}xi8", f"!otir.tile<1x{m}xi32", f"!otir.tile<{k}x{m}xi8, #private>"
open(sys.argv[2], "w").write(f"""otir.kernel @cmvm(%x: {x}, #global>, %y: {y}, #global>) {{
  %vx = otir.load %x : {x}, #global> -> {x}, #private>
  %w = otir.constant dense<[{rows}]> : {t}
  %z = otir.constant dense<0> : {y}, #private>
  %h = otir.matmul %vx, %w, %z : ({x}, #private>, {t}, {y}, #private>) -> {y}, #private>
  otir.store %h, %y : {y}, #private>, {y}, #global>
  otir.return
}}
""")
print(md)
PY
}
depth() { "$run" info "$1" | sed -n 's/^adder depth: *\([0-9]*\).*/\1/p'; }
adders() { "$run" info "$1" | sed -n 's/^counts: *\([0-9]*\) adders.*/\1/p'; }
over=0 minover=0 minadders=0
for s in $(seq 1 "$n"); do
  md=$(gen "$s")
  for extra in 1 2; do
    b=$((md + extra))
    "$opt" "$work/k.otir" --pass-pipeline="builtin.module(promote-types,lower-tiles{max-adder-depth=$b},dais-optimize)" --emit=alir-json -o "$work/k.json"
    [ "$(depth "$work/k.json")" -gt "$b" ] && over=$((over + 1))
  done
  "$opt" "$work/k.otir" --pass-pipeline="builtin.module(promote-types,lower-tiles{max-adder-depth=-1},dais-optimize,dais-rescale)" --emit=alir-json -o "$work/k.json"
  [ "$(depth "$work/k.json")" -gt "$md" ] && minover=$((minover + 1))
  minadders=$((minadders + $(adders "$work/k.json")))
done
echo "max-adder-depth = minimal + 1 and + 2: $over of $((2 * n)) circuits deeper than the bound"
echo "max-adder-depth=-1 with dais-rescale: $minover of $n above the minimal adder tree, $minadders adders in all"
