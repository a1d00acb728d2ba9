"""The kernels whose registers or spills differ between two ptxas -v logs (../j/ptx_tools/ptxas.sh),
demangled: `python3 ptxas_diff.py BASE_LOG VARIANT_LOG`. Lab CC's ptxas_cc.txt holds its output for
pfl1, its first form and pf4 (not in the lab: variant_cc.py) against base, in LayerNorm's and the
residual-add LayerNorm's projects of .gpu at 6398137 (csrc/row_norm/cuda.cuh as 123a52d's but a
comment)."""

import re
import subprocess
import sys


def parse(path: str) -> dict[str, dict]:
    """Each kernel's registers and (spill stores, spill loads) in bytes, by mangled name."""
    kernels: dict[str, dict] = {}
    name = None
    for line in open(path):
        if found := re.search(r"Compiling entry function '([^']+)'", line):
            name = found.group(1)
        elif name and (found := re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)):
            kernels.setdefault(name, {})["spill"] = (int(found.group(1)), int(found.group(2)))
        elif name and (found := re.search(r"Used (\d+) registers", line)):
            kernels.setdefault(name, {})["regs"] = int(found.group(1))
    return kernels


def main(base_log: str, variant_log: str) -> None:
    base, variant = parse(base_log), parse(variant_log)
    differ = [name for name in base if base[name] != variant.get(name)]
    demangled = subprocess.run(["c++filt"], input="\n".join(differ), capture_output=True, text=True)
    print(f"{len(base)} kernels, {len(differ)} differ")
    for name, readable in zip(differ, demangled.stdout.splitlines() if differ else [], strict=True):
        short = re.sub(r"\w+::row_norm::cuda::", "", readable)[:150]
        print(f"{base[name]} -> {variant.get(name)}  {short}")


if __name__ == "__main__":
    main(*sys.argv[1:])
