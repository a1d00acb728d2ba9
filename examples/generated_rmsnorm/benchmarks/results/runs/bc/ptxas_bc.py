"""Registers and spill bytes (ptxas -v, nvcc 13.0, sm_90a) of each forward_kernel build in two ptxas
logs of one project, before -> after. Lab BC (session 49) compiled the residual-add RMSNorm's and the
residual-add LayerNorm's `csrc/fused_add_*_cuda.cu` of the bundle of main (b94f19c), and of
variant_bc.py's loads (the residual-add RMSNorm) and loads4 (the residual-add LayerNorm: the same
kernels as loads), against the CPU wheel's headers and stubs of the CUDA libraries:
    nvcc -cubin -O3 -lineinfo -std=c++17 -gencode arch=compute_90a,code=sm_90a -Xptxas -v ... 2> LOG
Usage: python3 ptxas_bc.py BEFORE.log AFTER.log"""

import re
import subprocess
import sys

FUNCTION = re.compile(r"Compiling entry function '(\S+)'|Function properties for (\S+)")
SPILLS = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")
REGISTERS = re.compile(r"Used (\d+) registers")


def read(path: str) -> dict[str, dict]:
    """mangled name -> {"regs": int, "spill": (stores, loads)}"""
    found: dict[str, dict] = {}
    name = None
    for line in open(path):
        if m := FUNCTION.search(line):
            name = m.group(1) or m.group(2)
        elif (m := SPILLS.search(line)) and name:
            found.setdefault(name, {})["spill"] = (int(m.group(1)), int(m.group(2)))
        elif (m := REGISTERS.search(line)) and name:
            found.setdefault(name, {})["regs"] = int(m.group(1))
    return found


def main() -> None:
    before, after = read(sys.argv[1]), read(sys.argv[2])
    names = [n for n in before if "forward_kernel" in n and "staged" not in n]
    plain = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True)
    for name, readable in sorted(zip(names, plain.stdout.splitlines(), strict=True), key=lambda x: x[1]):
        short = re.sub(r"example_\w+::", "", readable.split("(")[0]).replace("row_norm::cuda::", "")
        old, new = before[name], after.get(name, {})
        print(f"{short:92s} {old.get('regs')}/{old.get('spill')} -> {new.get('regs')}/{new.get('spill')}")


if __name__ == "__main__":
    main()
