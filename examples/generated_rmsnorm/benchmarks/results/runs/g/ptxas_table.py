"""ptxas_table.py OLD NEW: registers, spills and stack of the kernels that differ in two ptxas -v reports."""

import re
import subprocess
import sys


def parse(path):
    """Each entry function's registers and its own stack frame and spills (not those of a function it
    calls, whose "Function properties" ptxas prints after the entry's)."""
    out, name, properties = {}, None, None
    for line in open(path):
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            name = m.group(1)
            out[name] = {}
            continue
        m = re.search(r"Function properties for (\w+)", line)
        if m:
            properties = m.group(1)
            continue
        if name is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and properties == name:
            out[name]["stack/spill"] = tuple(map(int, m.groups()))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            out[name]["regs"] = int(m.group(1))
    return out


old, new = parse(sys.argv[1]), parse(sys.argv[2])
names = sorted(old.keys() | new.keys())
demangled = subprocess.run(
    ["c++filt"], input="\n".join(names), capture_output=True, text=True
).stdout.splitlines()
same = 0
for n, d in zip(names, demangled, strict=True):
    a, b = old.get(n), new.get(n)
    if a == b:
        same += 1
        continue
    short = (
        re.sub(r"example_\w+::|row_norm::cuda::|norms::|c10::|at::OpMathType<[^>]*>::type", "", d).split(
            ">("
        )[0]
        + ">"
    )
    print(f"{short}\n    old {a}\n    new {b}")
print(f"{same} of {len(names)} kernels alike")
