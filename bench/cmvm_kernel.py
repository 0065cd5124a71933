"""Print an OTIR kernel y = x @ W for a constant integer matrix W.

usage: python3 bench/cmvm_kernel.py W.txt [IN_BITS]   (IN_BITS default 8)

W.txt holds W row by row (N rows of M integers, as gen_cmvm64.py and
numpy.savetxt write it); x is a 1xN tile of iIN_BITS, W an NxM tile of i8,
the accumulator a zero 1xM i32 tile. bench/lut-model.sh,
bench/lut-heldout.sh and bench/cmvm-area.sh lower it with
promote-types,lower-tiles,dais-optimize.
"""
import sys

import numpy as np

W = np.loadtxt(sys.argv[1], dtype=np.int64, ndmin=2)
n, m = W.shape
b = sys.argv[2] if len(sys.argv) > 2 else '8'
rows = ', '.join('[' + ', '.join(str(int(v)) for v in r) + ']' for r in W)
t = lambda s: f'!otir.tile<{s}, #private>'  # noqa: E731
print(f'''module attributes {{otir.typing_style = "hls"}} {{
  otir.kernel @cmvm(%x: !otir.tile<1x{n}xi{b}, #global>, %y: !otir.tile<1x{m}xi32, #global>) {{
    %vx = otir.load %x : !otir.tile<1x{n}xi{b}, #global> -> {t(f"1x{n}xi{b}")}
    %w = otir.constant dense<[{rows}]> : {t(f"{n}x{m}xi8")}
    %z = otir.constant dense<0> : {t(f"1x{m}xi32")}
    %h = otir.matmul %vx, %w, %z : ({t(f"1x{n}xi{b}")}, {t(f"{n}x{m}xi8")}, {t(f"1x{m}xi32")}) -> {t(f"1x{m}xi32")}
    otir.store %h, %y : {t(f"1x{m}xi32")}, !otir.tile<1x{m}xi32, #global>
    otir.return
  }}
}}''')
