"""Write alkaid's port layout of every alkaid conformance program: layout.json.

usage: alkaid-py layout.py CONFORMANCE_DIR > layout.json   (alkaid 5ad1e53, /work/ref)

For each program, alkaid's own CombLogic (loaded by CombLogic.load, which
upgrades spec 2 to spec 4) gives inp_kifs and out_kifs: lane j of
model_inp / model_out has k+i+f bits (k = 1 signed), packed from the least
significant bit, as alkaid's comb_logic_gen declares its ports. The test
TestAlkaidPortConvention checks otir's designs against this file and
simulates them with rows packed and unpacked by it alone.
"""

import json
import sys

from alkaid.types import CombLogic

PROGRAMS = [
    'alir-v2-mixed/model.json.gz',
    'alkaid-cmvm64/model-v2.json.gz',
    'alkaid-cmvm64/model-v4.json.gz',
    'alkaid-mlp/model-v4.json.gz',
]

root = sys.argv[1]
out = {}
for name in PROGRAMS:
    c = CombLogic.load(f'{root}/{name}')
    out[name] = {
        'inputs': [[int(v) for v in kif] for kif in c.inp_kifs.T],
        'outputs': [[int(v) for v in kif] for kif in c.out_kifs.T],
    }
lines = ['{']
for n, (name, lay) in enumerate(out.items()):
    comma = ',' if n + 1 < len(out) else ''
    lines.append(f' {json.dumps(name)}: {json.dumps(lay, separators=(",", ":"))}{comma}')
lines.append('}')
print('\n'.join(lines))
