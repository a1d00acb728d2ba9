"""Analysis BK's instruction counts (session 52; no GPU): the SASS of the LayerNorm backward kernel in
each object file named, built from one_bk.cu (nvcc 13.0, sm_90a; ptxas*.txt), by cuobjdump, which
CUOBJDUMP names (else the one on PATH). Prints each file's count of the instructions analysis_bk.md
discusses, then where the row loop's copy waits, barriers and first stores fall.
    python3 sass_count_bk.py a.o b.o ..."""

import collections
import os
import re
import subprocess
import sys

COUNTED = ["LDG.E.U16", "S2R", "LDGSTS.E.BYPASS.128", "LDS", "LDS.U16", "LDS.64", "FFMA", "FMUL", "FADD"]
COUNTED += ["IADD3", "IADD3.X", "LEA", "IMAD", "SHF.L.U64.HI", "STL", "LDL", "LDL.64", "STL.64", "CCTL.IVALL"]


def kernels(path: str) -> dict[str, list[str]]:
    """Each kernel's instructions (LN: LayerNorm's, RMS: RMSNorm's), in order."""
    tool = os.environ.get("CUOBJDUMP", "cuobjdump")
    sass = subprocess.run([tool, "-sass", path], capture_output=True, text=True, check=True).stdout
    found: dict[str, list[str]] = {}
    current = None
    for line in sass.splitlines():
        if match := re.search(r"Function : (\S+)", line):
            current = "LN" if "LayerNorm" in match.group(1) else "RMS"
            found[current] = []
        elif (match := re.match(r"\s*/\*[0-9a-f]{4,5}\*/\s+(.*?);", line)) and current:
            found[current].append(match.group(1).strip())
    return found


def opcode(instruction: str) -> str:
    words = instruction.split()
    return words[1] if words[0].startswith("@") else words[0]  # past a predicate


for path in sys.argv[1:]:
    ops = [opcode(i) for i in kernels(path)["LN"]]
    counts = collections.Counter(ops)
    print(path, "instructions", len(ops), {k: counts[k] for k in COUNTED})
    waits = [i for i, op in enumerate(ops) if op in ("LDGDEPBAR", "DEPBAR.LE")]
    barriers = [i for i, op in enumerate(ops) if op.startswith("BAR.SYNC")]
    stores = [i for i, op in enumerate(ops) if op.startswith("STG.E.128")]
    print(f"  copy waits {waits}, first barriers {barriers[:2]}, first stores {stores[:4]}")
