"""ptxas -v logs (../j/ptx_tools/ptxas.sh: nvcc 13.0, sm_90a, on the development machine) of a norm's
project before and after template_keep5.diff, backward kernel by backward kernel: the kernels matched
by their demangled template arguments less keep5's last one (kKeep); those whose registers or spills
differ, then keep5's new kKeep = true kernels with theirs. Usage: python3 ptxas_keep.py OLD NEW"""

import re
import subprocess
import sys


def parse(path):
    """{demangled backward kernel: (registers, (spill store bytes, spill load bytes))}."""
    text = open(path).read()
    found, name = {}, None
    for line in text.splitlines():
        entry = re.search(r"Compiling entry function '(\w+)'", line)
        if entry:
            name = entry.group(1)
            continue
        used = re.search(r"Used (\d+) registers", line)
        if used and name:
            after = text.split(name, 1)[1][:600]  # its "Function properties" line comes first
            spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", after)
            found[name] = (int(used.group(1)), spills.groups() if spills else None)
            name = None
    names = list(found)
    demangled = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout
    pairs = zip(names, demangled.splitlines(), strict=True)
    return {d.split("(")[0]: found[n] for n, d in pairs if "backward_kernel" in d}


old, new = parse(sys.argv[1]), parse(sys.argv[2])
same, kept = 0, []
for name, value in new.items():
    if name.endswith(", true>"):
        kept.append((name, value))
        continue
    before = old.get(name[: -len(", false>")] + ">")
    if before == value:
        same += 1
    else:
        print(f"differs: {name.split('backward_kernel')[1]} {before} -> {value}")
print(f"{same} kernels as before, {len(kept)} kKeep kernels:")
for name, (registers, spills) in kept:
    print(f"  {name.split('backward_kernel')[1]}: {registers} registers, spill stores/loads {spills}")
