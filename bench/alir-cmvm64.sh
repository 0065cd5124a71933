#!/bin/bash
# A/B throughput of otir-run binaries and alkaid's C++ interpreter on the
# 64x64 CMVM program (BENCHMARKS.md, "ALIR interpreter throughput (issue 15)").
#
#   bench/alir-cmvm64.sh ROUNDS THREADS SPEC BIN...
#
# SPEC is 2 or 4 (model-v2.json.gz / model-v4.json.gz). A BIN is an otir-run
# binary, or "alkaid" for $REF/alir_v${SPEC}_run (REF defaults to
# /work/ref/bin). The binaries alternate within each round; for each the
# G op-evals/s of every round, the median and the best are printed. With
# CPU=1 the figure is per CPU-second instead of wall-clock: for otir-run
# ops*samples*repeats/cpu-seconds from its own lines, for alkaid the
# task-clock (perf stat) of --bench 550 minus that of --bench 50.
# CONF defaults to ../shared/conformance/alir/alkaid-cmvm64.
set -euo pipefail
R=$1 J=$2 V=$3
shift 3
D=${CONF:-../shared/conformance/alir/alkaid-cmvm64}
REF=${REF:-/work/ref/bin}
M=$D/model-v$V.json.gz
declare -A res
taskclock() {
  perf stat -x, -e task-clock "$REF/alir_v${V}_run" "$M" "$D/inputs.txt" --bench "$1" --threads "$J" 2>&1 >/dev/null |
    awk -F, '/task-clock/{print $1}'
}
for _ in $(seq "$R"); do
  for b in "$@"; do
    if [ "$b" = alkaid ]; then
      if [ -n "${CPU:-}" ]; then
        t1=$(taskclock 50) t2=$(taskclock 550)
        x=$(awk -v a="$t1" -v b="$t2" 'BEGIN{print 500*1000*4994/((b-a)/1000)}')
      else
        x=$("$REF/alir_v${V}_run" "$M" "$D/inputs.txt" --bench 500 --threads "$J" | sed 's/.*op_evals_per_s=//')
      fi
    else
      o=$("$b" bench "$M" --input "$D/inputs.txt" -j "$J" --min-time 0.5s)
      if [ -n "${CPU:-}" ]; then
        x=$(echo "$o" | awk '/^ops:/{o=$2}/^samples:/{s=$2}/^repeats:/{r=$2}/^cpu-seconds:/{c=$2}END{print o*s*r/c}')
      else
        x=$(echo "$o" | awk '/^op-evals\/s:/{print $2}')
      fi
    fi
    res[$b]+="$(awk -v x="$x" 'BEGIN{printf "%.2f", x/1e9}') "
  done
done
for b in "$@"; do
  echo "${res[$b]}" | tr ' ' '\n' | grep . | sort -n |
    awk -v b="$(basename "$b")" '{v[NR]=$1} END {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; printf "%-20s median %.2f best %.2f\n", b, m, v[NR]}'
done
