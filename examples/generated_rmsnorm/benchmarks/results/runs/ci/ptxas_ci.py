# ruff: noqa: E501
"""Lab CI's registers (run from runs/ci/; lab CJ runs it from runs/cj/ on its own logs): each
warp_rows_forward_kernel of a ptxas -v log (../j/ptx_tools/ptxas.sh: nvcc 13.0, sm_90a, on the
development machine with torch 2.13's CPU headers and without the extension's own -D flags, of
.gpu/PROJECT at a105f85 patched by variant_ci.py wr or variant_cj.py wr2) beside forward_rows'
kernels of the same arguments in the same log (forward_kernel and forward_kernel_two_blocks,
kCached, not kShifted: base's, whose code the variants leave).
    python3 ptxas_ci.py ptxas_layer_norm_wr.txt ptxas_rmsnorm_wr.txt > ptxas_ci.txt"""

import re
import subprocess
import sys
from pathlib import Path


def kernels(text: str) -> dict[str, tuple[int, int]]:
    """Demangled name -> (registers, spill store bytes)."""
    out, name, spill = {}, None, 0
    for line in text.splitlines():
        if m := re.search(r"Compiling entry function '(\w+)'", line):
            name, spill = m.group(1), 0
        elif m := re.search(r"(\d+) bytes spill stores", line):
            spill = int(m.group(1))
        elif (m := re.search(r"Used (\d+) registers", line)) and name:
            out[name] = (int(m.group(1)), spill)
            name = None
    names = list(out)
    plain = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout.split(
        "\n"
    )
    return {short(p): out[n] for n, p in zip(names, plain[: len(names)], strict=True)}


def short(name: str) -> str:
    name = re.sub(r"\(.*", "", name.removeprefix("void "))
    name = re.sub(r"\w+::", "", name)
    return name.replace("BFloat16", "bf16").replace("Half", "f16")


for log in sys.argv[1:]:
    found = kernels(Path(log).read_text())
    print(
        f"== {Path(log).name}: registers (spill store bytes): the variant's kernel; forward_kernel; forward_kernel_two_blocks"
    )
    for name, (regs, spill) in sorted(found.items()):
        if not name.startswith("warp_rows_forward_kernel<"):
            continue
        args = name[len("warp_rows_forward_kernel<") : -1]
        base = [
            found.get(f"{k}<{args}, true, false>") for k in ("forward_kernel", "forward_kernel_two_blocks")
        ]
        cells = [
            f"{r:3} ({s:2})" if (r, s) != (None, None) else "  -     "
            for r, s in [(regs, spill), *[b or (None, None) for b in base]]
        ]
        print(f"{args:40} {'   '.join(cells)}")
