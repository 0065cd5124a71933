#!/bin/sh
# Writes the kernels of BENCHMARKS.md's "Compact lowering (issue 15)" section
# into directory $1 (default .):
#   mmN.otir   N x N x N non-constant i8 matmul of two loaded tiles into i32,
#              one kernel, no grid (N = 16, 32, 64, 128)
#   cmv128.otir a 128x128 int8 constant matrix times a loaded i8 vector
#              (deterministic pseudo-random entries)
set -e
dir=${1:-.}
mkdir -p "$dir"
for n in 16 32 64 128; do
  cat > "$dir/mm$n.otir" <<K
otir.kernel @mm$n(%A: !otir.tile<${n}x${n}xi8, #global>, %B: !otir.tile<${n}x${n}xi8, #global>, %C: !otir.tile<${n}x${n}xi32, #global>) {
  %a = otir.load %A : !otir.tile<${n}x${n}xi8, #global> -> !otir.tile<${n}x${n}xi8, #private>
  %b = otir.load %B : !otir.tile<${n}x${n}xi8, #global> -> !otir.tile<${n}x${n}xi8, #private>
  %z = otir.constant dense<0> : !otir.tile<${n}x${n}xi32, #private>
  %c = otir.matmul %a, %b, %z : (!otir.tile<${n}x${n}xi8, #private>, !otir.tile<${n}x${n}xi8, #private>, !otir.tile<${n}x${n}xi32, #private>) -> !otir.tile<${n}x${n}xi32, #private>
  otir.store %c, %C : !otir.tile<${n}x${n}xi32, #private>, !otir.tile<${n}x${n}xi32, #global>
  otir.return
}
K
done
# 128x128 constant matrix: entries uniform in -128..127 from the Park-Miller
# generator (seed 1), row-major.
awk 'BEGIN {
  n = 128; x = 1
  printf "otir.kernel @cmv128(%%X: !otir.tile<%dx1xi8, #global>, %%Y: !otir.tile<%dx1xi32, #global>) {\n", n, n
  printf "  %%w = otir.constant dense<["
  for (i = 0; i < n; i++) {
    printf "%s[", (i ? ", " : "")
    for (j = 0; j < n; j++) printf "%s%d", (j ? ", " : ""), (x = (x * 16807) % 2147483647) % 256 - 128
    printf "]"
  }
  printf "]> : !otir.tile<%dx%dxi8, #private>\n", n, n
  printf "  %%x = otir.load %%X : !otir.tile<%dx1xi8, #global> -> !otir.tile<%dx1xi8, #private>\n", n, n
  printf "  %%z = otir.constant dense<0> : !otir.tile<%dx1xi32, #private>\n", n
  printf "  %%y = otir.matmul %%w, %%x, %%z : (!otir.tile<%dx%dxi8, #private>, !otir.tile<%dx1xi8, #private>, !otir.tile<%dx1xi32, #private>) -> !otir.tile<%dx1xi32, #private>\n", n, n, n, n, n
  printf "  otir.store %%y, %%Y : !otir.tile<%dx1xi32, #private>, !otir.tile<%dx1xi32, #global>\n", n, n
  printf "  otir.return\n}\n"
}' > "$dir/cmv128.otir"
