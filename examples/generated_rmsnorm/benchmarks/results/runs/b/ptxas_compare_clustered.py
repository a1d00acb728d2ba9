# ruff: noqa: E501
"""ptxas_compare_clustered.py OLD.txt NEW.txt: as ptxas_compare.py, the new kernels' last template argument
(kClustered) dropped to find the old kernel."""

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
    names = list(res)
    dem = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.split(
        "\n"
    )
    return {d.split(">(")[0]: res[n] for n, d in zip(names, dem, strict=False) if "backward_kernel" in d}


a, b = parse(sys.argv[1]), parse(sys.argv[2])
for k, v in b.items():
    base = k
    if k.endswith(", false"):
        base = k[:-7]
    elif k.endswith(", true"):
        base = k[:-6]
    old = a.get(base)
    tag = "CLUSTER" if k.endswith(", true") else "plain"
    if old != v:
        print(tag, old, "->", v, re.sub(r"^void \S+::backward_kernel<\S+::norms::", "", k)[:110])
