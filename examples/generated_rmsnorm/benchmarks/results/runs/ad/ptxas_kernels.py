"""ptxas -v logs (../j/ptx_tools/ptxas.sh: nvcc 13.0, sm_90a, on the development machine) of two
renderings of LayerNorm's project compared, backward kernel by backward kernel, with the kernels' template
arguments (Norm, scalar_t, param_t, kVec, kItems, kInRegisters, kStages, kShifted, kClustered) demangled:
registers and spill stores and loads, for each kernel that differs. A kernel's spills are those ptxas
prints under its own "Function properties" line (../ab/overflow/ptxas_compare.py took the first such
line after the kernel's name, which is a called function's where the kernel calls one not inlined).
Usage: python3 ptxas_kernels.py OLD_LOG NEW_LOG [KERNEL], KERNEL backward_kernel unless given
(forward_kernel: the forward's kernels, forward_kernel_two_blocks too)."""

import re
import subprocess
import sys


def parse(path):
    kernels, current, props = {}, None, None
    for line in open(path):
        if m := re.search(r"Compiling entry function '(\S+)'", line):
            current = m.group(1)
        elif m := re.search(r"Function properties for (\S+)", line):
            props = m.group(1)
        elif (
            current
            and props == current
            and (m := re.search(r"(\d+) bytes stack frame, (\d+) bytes spill", line))
        ):
            stores = int(re.search(r"(\d+) bytes spill stores", line).group(1))
            loads = int(re.search(r"(\d+) bytes spill loads", line).group(1))
            kernels.setdefault(current, {})["spill"] = (int(m.group(1)), stores, loads)
        elif current and (m := re.search(r"Used (\d+) registers", line)):
            kernels.setdefault(current, {})["regs"] = int(m.group(1))
    return kernels


old, new = parse(sys.argv[1]), parse(sys.argv[2])
kernel = sys.argv[3] if len(sys.argv) > 3 else "backward_kernel"
names = [k for k in old if kernel in k]
plain = subprocess.run(
    ["c++filt"], input="\n".join(names), capture_output=True, text=True
).stdout.splitlines()
rows = []
for name, text in zip(names, plain, strict=True):
    m = re.search(r"(\w*" + kernel + r"\w*)<(.*?)>\(", text)
    args = re.sub(r"[a-z_:]*norms::", "", f"{m.group(1)}<{m.group(2)}>" if m else text)
    args = args.replace("c10::BFloat16", "bf16").replace("c10::Half", "f16")
    o, n = old[name], new.get(name)
    if o != n:
        rows.append(
            f"{args:72} registers {o['regs']:3} -> {n['regs']:3}, spill stores {o['spill'][1]:4} -> "
            f"{n['spill'][1]:4}, loads {o['spill'][2]:4} -> {n['spill'][2]:4}"
        )
print(f"{len(names)} kernels named {kernel}, {len(rows)} differ")
print("\n".join(sorted(rows)))
