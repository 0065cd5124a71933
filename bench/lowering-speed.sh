#!/usr/bin/env bash
# lowering-speed.sh: issue 31's lowering row (BENCHMARKS.md, "Lowering
# speed (issue 31)"): the 64x64x64 non-constant i8 matmul of
# gen-lowering.sh through promote-types,lower-tiles,dais-optimize to ALIR
# JSON (about 528k ops), two otir-opt binaries side by side.
#
#   bench/lowering-speed.sh OLD NEW [RUNS]    (RUNS of each, default 3)
#
# e.g. OLD built from main into /tmp, NEW from the branch:
#   git worktree add /tmp/main-wt main && (cd /tmp/main-wt && go build -o /tmp/otir-opt-old ./cmd/otir-opt)
#   go build -o /tmp/otir-opt-new ./cmd/otir-opt && bench/lowering-speed.sh /tmp/otir-opt-old /tmp/otir-opt-new
#
# Alternates OLD and NEW, one line per run: CPU seconds (user+sys), wall,
# peak RSS and the load average (1, 5, 15 min) at the start of the run;
# then NEW's --timing split, and cmp of the two binaries' JSON for
# mm16, mm32 and mm64 (the outputs must be byte-identical).
set -euo pipefail
old=$1 new=$2 runs=${3:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/bench/gen-lowering.sh" "$work" >/dev/null
pipeline='builtin.module(promote-types,lower-tiles,dais-optimize)'
lower() { # lower BINARY KERNEL OUT [FLAGS...]
  local bin=$1 k=$2 out=$3
  shift 3
  "$bin" "$work/$k.otir" --pass-pipeline="$pipeline" --emit=alir-json -o "$out" "$@"
}
for i in $(seq "$runs"); do
  for which in old new; do
    bin=$old
    [ "$which" = new ] && bin=$new
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    /usr/bin/time -f "$which run $i: %U+%S s CPU, %e s wall, %M KB peak, load $load" \
      "$bin" "$work/mm64.otir" --pass-pipeline="$pipeline" --emit=alir-json -o "$work/$which.json" 2>&1
  done
done
echo "$new --timing (mm64):"
lower "$new" mm64 "$work/t.json" --timing 2>&1 | sed -n '/Wall Time/,$p'
for k in mm16 mm32 mm64; do
  lower "$old" "$k" "$work/$k.old.json"
  lower "$new" "$k" "$work/$k.new.json"
  if cmp -s "$work/$k.old.json" "$work/$k.new.json"; then
    echo "$k: identical JSON ($(wc -c <"$work/$k.new.json") bytes)"
  else
    echo "$k: JSON DIFFERS" && exit 1
  fi
done
