"""Print alkaid's pipeline at each latency cutoff: its reported latency and
register bits (RTLModel(comb, path, latency_cutoff=C).latency, .reg_bits).

    alkaid-py bench/pipeline_alkaid.py PROGRAM.json.gz C...

One line per cutoff: "C LATENCY REG_BITS". alkaid reports one cycle less
than its designs take (it registers the inputs too): the design's latency
in clock edges is LATENCY + 1 (docs/rtl.md, "Pipelining").
"""

import sys
import tempfile

from alkaid.codegen.rtl.rtl_model import RTLModel
from alkaid.types import CombLogic

comb = CombLogic.load(sys.argv[1])
for c in sys.argv[2:]:
    m = RTLModel(comb, tempfile.mkdtemp(), latency_cutoff=float(c))
    print(c, m.latency, m.reg_bits, flush=True)
