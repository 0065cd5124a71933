#!/usr/bin/env bash
# rtl-area.sh: synthesize Verilog with yosys and report its area: LUTs,
# carry cells and flip-flops (docs/rtl.md).
#
#   scripts/rtl-area.sh [--lut6] TOP FILE.v [MORE.v ...]
#
# Default: synth_xilinx -flatten (LUT1..LUT6, CARRY4, FD* cells, as the
# issue-17 figures were measured); --lut6: generic synth -lut 6 ($lut cells,
# no carry cells). Prints one line:
#   TOP: LUTs N, carry C, flip-flops F (yosys VERSION, SCRIPT)
# and the full yosys stat in TOP.area.log beside the current directory.
set -euo pipefail
mode=xilinx
if [ "${1:-}" = "--lut6" ]; then mode=lut6; shift; fi
if [ $# -lt 2 ]; then
  echo "usage: $0 [--lut6] TOP FILE.v [MORE.v ...]" >&2; exit 2
fi
top=$1; shift
command -v yosys >/dev/null || { echo "$0: yosys not installed" >&2; exit 1; }
reads=""
for f in "$@"; do reads="$reads read_verilog $f;"; done
if [ $mode = xilinx ]; then
  script="synth_xilinx -flatten -top $top"
else
  script="synth -lut 6 -flatten -top $top"
fi
log="$top.area.log"
yosys -q -p "$reads $script; tee -o $log stat" >/dev/null
cells() { # sum the counts of the stat lines whose cell name matches $1
  awk -v re="$1" '$1 ~ re && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' "$log"
}
if [ $mode = xilinx ]; then
  luts=$(cells '^LUT[1-6]$'); carry=$(cells '^CARRY'); ffs=$(cells '^FD')
else
  luts=$(cells '^\$lut$'); carry=0; ffs=$(cells '^\$_(S?DFF|DFF)')
fi
echo "$top: LUTs $luts, carry $carry, flip-flops $ffs ($(yosys -V | awk '{print $1, $2}'), $script)"
