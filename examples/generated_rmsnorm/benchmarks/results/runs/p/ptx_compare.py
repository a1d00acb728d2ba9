"""The PTX of a project's kernels before and after row_origin: which kernels' code is the same.

Usage: python3 ptx_compare.py OLD.ptx NEW.ptx. Each .ptx is `nvcc -std=c++17 -arch=compute_90a -ptx
-O3 --expt-relaxed-constexpr csrc/<op>_cuda.cu` (nvcc 13.0, torch 2.13's CPU headers and a stub of the
CUDA build's cuda_cmake_macros.h and of the CUDA libraries' handle types) of the project that
`scaffold gpu-bundle` renders, with csrc/row_norm/cuda.cuh as the template had it at cdcde01 (OLD)
and at 3199d30 (NEW). The compiler names some symbols after a hash of the file; those names are
masked before comparing. Prints, for forward kernels and for the others, how many are the same.
"""

import re
import sys


def kernels(path: str) -> dict[str, str]:
    text = open(path).read()
    found = {}
    for match in re.finditer(r"^\.(?:visible |weak )?\.entry (\S+)\(", text, re.M):
        end = text.find("\n}\n", match.start())
        body = text[match.start() : end]
        found[match.group(1)] = re.sub(r"_GLOBAL__N__[0-9a-f_]+", "_GLOBAL__N__", body)
    return found


old, new = kernels(sys.argv[1]), kernels(sys.argv[2])
assert old.keys() == new.keys(), "the two builds instantiate different kernels"
for kind, select in [("forward", lambda k: "forward" in k), ("other", lambda k: "forward" not in k)]:
    names = [k for k in old if select(k)]
    same = sum(old[k] == new[k] for k in names)
    print(f"{sys.argv[2]}: {kind} kernels: {same} of {len(names)} the same")
