"""ptxas -v logs (../../j/ptx_tools/ptxas.sh: nvcc 13.0, sm_90a, on the development machine) of two
renderings of a norm's project compared kernel by kernel, the kernels matched by their demangled
template arguments rather than their mangled names (which call AK's new kernel argument changed):
registers and spill stores and loads of each kernel that differs. Parses the logs with
../../ad/ptxas_kernels.py's parse(). Usage: python3 ptxas_by_arguments.py OLD_LOG NEW_LOG [KERNEL]
(KERNEL: backward_kernel unless given)."""

import re
import subprocess
import sys
from pathlib import Path

source = (Path(__file__).resolve().parents[2] / "ad" / "ptxas_kernels.py").read_text()
namespace = {}
exec(source.split("\n\nold, new =")[0], namespace)  # parse() and the imports, not the script's body


def by_arguments(path, kernel):
    kernels = namespace["parse"](path)
    names = [name for name in kernels if kernel in name]
    plain = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True)
    out = {}
    for name, text in zip(names, plain.stdout.splitlines(), strict=True):
        m = re.search(r"(\w*" + kernel + r"\w*)<(.*?)>\(", text)
        args = re.sub(r"[a-z_:]*norms::", "", f"{m.group(1)}<{m.group(2)}>" if m else text)
        out[args.replace("c10::BFloat16", "bf16").replace("c10::Half", "f16")] = kernels[name]
    return out


kernel = sys.argv[3] if len(sys.argv) > 3 else "backward_kernel"
old, new = by_arguments(sys.argv[1], kernel), by_arguments(sys.argv[2], kernel)
if old.keys() != new.keys():
    sys.exit(f"the logs hold other {kernel} kernels: {len(old)} against {len(new)}")
rows = [
    f"{a:72} registers {o['regs']:3} -> {new[a]['regs']:3}, spill stores {o['spill'][1]:4} -> "
    f"{new[a]['spill'][1]:4}, loads {o['spill'][2]:4} -> {new[a]['spill'][2]:4}"
    for a, o in old.items()
    if o != new[a]
]
print(f"{len(old)} kernels named {kernel}, {len(rows)} differ")
print("\n".join(sorted(rows)))
