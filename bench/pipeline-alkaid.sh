#!/usr/bin/env bash
# pipeline-alkaid.sh: otir's pipeliner against alkaid's at the same latency
# (issue 29, BENCHMARKS.md "Pipelining against alkaid").
#
#   bench/pipeline-alkaid.sh ALKAID_PROGRAM.json.gz [OTIR_PROGRAM] -- C...
#
# For each alkaid cutoff C: alkaid's latency (clock edges: its reported
# latency + 1) and register bits on ALKAID_PROGRAM, then the largest
# otir-run convert --latency-cutoff giving that latency, on
# ALKAID_PROGRAM and on OTIR_PROGRAM (otir's own circuit of the same
# network), with otir's register bits and flip-flops. Needs otir-run on
# PATH and alkaid-py (ALKAID_PY, default /work/ref/bin/alkaid-py).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
alk=${ALKAID_PY:-/work/ref/bin/alkaid-py}
prog=$1; shift
own=""
if [ "$1" != "--" ]; then own=$1; shift; fi
shift # --
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# lat PROGRAM C: the latency of otir's pipeline of PROGRAM at cutoff C.
lat() { otir-run convert "$1" "$tmp/x.v" --latency-cutoff "$2" 2>&1 | sed -E 's/.*latency: ([0-9]+) cycles?.*/\1/'; }
# otir_at PROGRAM LATENCY: "cutoff latency register-bits flip-flops" at the
# largest cutoff (bisection, 4 digits) whose latency is LATENCY (the most
# freedom to place registers), else the smallest with less.
otir_at() {
  local p=$1 want=$2 lo=0.05 hi=1000 mid line
  for _ in $(seq 30); do
    mid=$(awk -v a=$lo -v b=$hi 'BEGIN { printf "%.4g", (a + b) / 2 }')
    { [ "$mid" = "$lo" ] || [ "$mid" = "$hi" ]; } && break
    if [ "$(lat "$p" "$mid")" -ge "$want" ]; then lo=$mid; else hi=$mid; fi
  done
  [ "$(lat "$p" "$lo")" -le "$want" ] || lo=$hi
  line=$(otir-run convert "$p" "$tmp/x.v" --latency-cutoff "$lo" 2>&1)
  echo "$lo $(echo "$line" | sed -E 's/.*latency: ([0-9]+) cycles?, registers: ([0-9]+) bits \(([0-9]+) flip-flops.*/\1 \2 \3/')"
}
printf "| alkaid cutoff | alkaid latency | alkaid register bits | otir cutoff | otir latency | otir register bits | otir flip-flops |"
[ -n "$own" ] && printf " own: cutoff | latency | register bits | flip-flops |"
echo
"$alk" "$here/pipeline_alkaid.py" "$prog" "$@" | while read -r c lat bits; do
  edges=$((lat + 1))
  printf "| %s | %s | %s | %s |" "$c" "$edges" "$bits" "$(otir_at "$prog" $edges | sed 's/ / | /g')"
  [ -n "$own" ] && printf " %s |" "$(otir_at "$own" $edges | sed 's/ / | /g')"
  echo
done
