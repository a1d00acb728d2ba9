"""The forward kernels whose registers, spills or static shared memory differ between two ptxas -v
logs (ptx_tools/ptxas.sh), and the static shared memory of the staged forward (forward_staged_kernel)
in each. Usage: python3 ptxas_compare.py OLD_LOG NEW_LOG

ptxas_j1.txt and ptxas_j2.txt are its output for the logs of labs J1 and J2 (not kept: ptxas.sh
writes them again from the renderings that prepare_j.sh makes), each under a heading
"== PROJECT: 9ae7143 -> PATCH" that the loop which ran it printed."""

import re
import sys


def parse(path):
    """kernel -> (registers, (spill stores, spill loads), static shared memory bytes)."""
    out, name, spill = {}, None, (0, 0)
    for line in open(path):
        if m := re.search(r"Function properties for (\S+)", line):
            name, spill = m.group(1), (0, 0)
        elif (m := re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)) and name:
            spill = (int(m.group(1)), int(m.group(2)))
        elif (m := re.search(r"Used (\d+) registers", line)) and name:
            smem = re.search(r"(\d+) bytes smem", line)
            out[name] = (int(m.group(1)), spill, int(smem.group(1)) if smem else 0)
            name = None
    return out


old, new = parse(sys.argv[1]), parse(sys.argv[2])
for kernel in sorted(old.keys() | new.keys()):
    if "forward" in kernel and old.get(kernel) != new.get(kernel):
        print("registers, (spill stores, loads), smem bytes:", old.get(kernel), "->", new.get(kernel), kernel)
for kernel in sorted(old.keys() | new.keys()):
    if "forward_staged" in kernel:
        print(
            "staged forward's static shared memory:", old[kernel][2], "->", new[kernel][2], "bytes,", kernel
        )
print(len(old), len(new), "kernels;", sum("forward" in k for k in old), "forward")
