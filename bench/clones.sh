#!/bin/sh
# The clone count of issue 30 item 4: the pairs of places that share six
# or more lines (`duplicates`, the project's clone detector) and that it
# does not mark boilerplate, split in two:
#   CODE    the shared lines hold code;
#   HEADER  fewer than six of them on either side are code: the rest are
#           a Go file's package clause and the quoted paths of its
#           `import ( ... )` block, which the detector does not pass over
#           as it does single import lines.
# Usage: bench/clones.sh [--list]   (--list prints every pair with its class)
set -e
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
duplicates --most 200 --seconds 300 >"$out"
head -1 "$out"
python3 - "$out" "${1:-}" <<'PY'
import re, sys

def code_lines(path, a, b):
    """Lines a..b of path that are code: not blank, comment, punctuation,
    package clause or an import path."""
    n, in_import = 0, False
    for i, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
        s = line.strip()
        if s.startswith("import ("):
            in_import = True
        if i > b:
            break
        if in_import:
            if s == ")":
                in_import = False
            continue
        if i < a or not s or s.startswith("//") or s.startswith("package ") or s.startswith("import "):
            continue
        if re.fullmatch(r"[{}()\[\],;]+", s):
            continue
        n += 1
    return n

pairs = [l.rstrip("\n") for l in open(sys.argv[1]) if l.startswith("D") and "boilerplate" not in l]
counts = {"CODE": 0, "HEADER": 0}
for l in pairs:
    sides = re.findall(r"(\S+):(\d+)-(\d+)", l)
    kind = "CODE" if min(code_lines(p, int(a), int(b)) for p, a, b in sides) >= 6 else "HEADER"
    counts[kind] += 1
    if sys.argv[2] == "--list":
        print(kind, l)
print(f"{len(pairs)} pairs not marked boilerplate: {counts['CODE']} CODE, {counts['HEADER']} HEADER")
PY
