# Sourced by bench/lut-model.sh and bench/lut-heldout.sh, from the
# repository's root, after they set D (the testdata directory the programs
# and calibration.tsv go to): the tools built into $T, and the helpers both
# use to make programs and to synthesize designs.
REF=${REF:-/work/ref}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$D"
go build -o "$T/" ./cmd/otir-opt ./cmd/otir-run ./cmd/otir-translate
opt() { "$T/otir-opt" "$@"; }
prog() { # NAME: gzip the program $T/p.json into $D/NAME.json.gz
  gzip -9n < "$T/p.json" > "$D/$1.json.gz"
}
cmvm_kernel() { /usr/bin/python3 bench/cmvm_kernel.py "$@"; }  # W.txt [IN_BITS]: y = x @ W as OTIR
synth_row() { # NAME CUTOFF: the design of $D/NAME.json.gz by yosys, as a calibration.tsv row
  "$T/otir-run" convert "$D/$1.json.gz" "$T/d.v" --name d --latency-cutoff "$2" >/dev/null
  local line
  line=$(cd "$T" && bash "$OLDPWD/scripts/rtl-area.sh" d d.v)
  n() { sed -n "s/.*$1 \([0-9]*\).*/\1/p" <<<"$line"; }
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$(n LUTs)" "$(n carry)" "$(n flip-flops)"
}
