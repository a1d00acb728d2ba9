"""python3 ptx_same.py OLD.ptx NEW.ptx: the kernels of two PTX files compared by demangled name, each
kernel's own name, its labels and its local depot renumbered (as b/ptx_compare.py does)."""

import re
import subprocess
import sys


def kernels(path):
    text = open(path).read()
    found = list(re.finditer(r"\.visible \.entry (\S+)\((.*?)\n\}\n", text, re.S))
    names = subprocess.run(
        ["c++filt"], input="\n".join(m.group(1) for m in found), capture_output=True, text=True
    ).stdout.split("\n")
    out = {}
    for m, name in zip(found, names, strict=False):
        body = m.group(0).replace(m.group(1), "F")
        body = re.sub(r"\$L__BB\d+_", "$L__BB_", re.sub(r"__local_depot\d+", "__local_depot", body))
        out[name] = body
    return out


old, new = kernels(sys.argv[1]), kernels(sys.argv[2])
same = sum(1 for name, body in new.items() if old.get(name) == body)
print(f"kernels: old {len(old)} new {len(new)} same names: {set(old) == set(new)}")
print(f"identical: {same} differ: {len(new) - same}")
