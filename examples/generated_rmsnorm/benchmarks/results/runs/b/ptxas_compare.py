# ruff: noqa: E501
"""ptxas_compare.py OLD.txt NEW.txt: registers and spills (ptxas -v) of each backward kernel that changed."""

import re
import subprocess
import sys


def parse(p):
    s = open(p).read()
    res = {}
    for m in re.finditer(
        r"Compiling entry function '(\S+)' for 'sm_90a'\nptxas info\s+: Function properties for \S+\n\s+(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads\nptxas info\s+: Used (\d+) registers",
        s,
    ):
        res[m.group(1)] = (int(m.group(5)), int(m.group(3)), int(m.group(4)))
    return res


a, b = parse(sys.argv[1]), parse(sys.argv[2])
names = [k for k in a if "backward_kernel" in k]
dem = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")
print("kernels", len(a), len(b), "backward", len(names))
for k, d in zip(names, dem, strict=False):
    if k not in b:
        print("MISSING", d[:160])
        continue
    if a[k] != b[k]:
        short = re.sub(r"^void \S+::backward_kernel<", "", d).split(">(")[0]
        print(f"{a[k]} -> {b[k]}  {short[:150]}")
