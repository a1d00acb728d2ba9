"""Registers and spills of the forward kernels that differ between two ptxas -v logs (nvcc 13.0,
sm_90a, this repository's machine; the logs of labs J1 and J2 were not kept, their comparisons are
ptxas_j1.txt and ptxas_j2.txt). Usage: python3 ptxas_compare.py OLD_LOG NEW_LOG"""

import re
import sys


def parse(path):
    out, name, spill = {}, None, (0, 0)
    for line in open(path):
        if m := re.search(r"Function properties for (\S+)", line):
            name = m.group(1)
        elif (m := re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)) and name:
            spill = (int(m.group(1)), int(m.group(2)))
        elif (m := re.search(r"Used (\d+) registers", line)) and name:
            out[name] = (int(m.group(1)), spill)
            name = None
    return out


old, new = parse(sys.argv[1]), parse(sys.argv[2])
for kernel in sorted(old.keys() | new.keys()):
    if "forward" in kernel and old.get(kernel) != new.get(kernel):
        print("registers (spill stores, loads):", old.get(kernel), "->", new.get(kernel), kernel)
print(len(old), len(new), "kernels;", sum("forward" in k for k in old), "forward")
