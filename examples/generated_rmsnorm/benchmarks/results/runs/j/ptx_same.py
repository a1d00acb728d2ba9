"""Whether two PTX files (ptx_tools/ptx.sh) hold the same kernels, entry by entry. Usage: python3
ptx_same.py A.ptx B.ptx; prints the entries that differ or are in one file only, and a count."""

import re
import sys


def entries(path):
    text = open(path).read()
    starts = list(re.finditer(r"\.entry (\S+)\(", text))
    return {
        m.group(1): text[m.start() : starts[i + 1].start() if i + 1 < len(starts) else len(text)]
        for i, m in enumerate(starts)
    }


a, b = entries(sys.argv[1]), entries(sys.argv[2])
differ = sorted(k for k in a.keys() & b.keys() if a[k] != b[k])
only = sorted(a.keys() ^ b.keys())
for kernel in differ:
    print("differs:", kernel)
for kernel in only:
    print("in one file only:", kernel)
print(f"{len(a)} and {len(b)} entries; {len(differ)} differ, {len(only)} in one file only")
