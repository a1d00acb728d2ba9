"""ptxas -v logs (../j/ptx_tools/ptxas.sh: nvcc 13.0, sm_90a, on the development machine) of a norm's
project before and after template_keep5.diff, backward kernel by backward kernel, read by
../ak/ptxas/ptxas_by_arguments.py's by_arguments (kernels named by their demangled template arguments;
spills from each kernel's own "Function properties" line): the kernels matched by their arguments less
keep5's last one (kKeep); those whose registers or spills differ, then keep5's new kKeep = true kernels
with theirs. Usage: python3 ptxas_keep.py OLD_LOG NEW_LOG"""

import sys
from pathlib import Path

source = (Path(__file__).resolve().parents[1] / "ak" / "ptxas" / "ptxas_by_arguments.py").read_text()
namespace = {"__file__": str(Path(__file__).resolve().parents[1] / "ak" / "ptxas" / "ptxas_by_arguments.py")}
exec(source.split("\n\nkernel = sys.argv")[0], namespace)  # by_arguments and what it needs, not the body
by_arguments = namespace["by_arguments"]

old, new = by_arguments(sys.argv[1], "backward_kernel"), by_arguments(sys.argv[2], "backward_kernel")
same, kept = 0, []
for name, value in new.items():
    if name.endswith(", true>"):
        kept.append((name, value))
        continue
    before = old.get(name.removesuffix(", false>") + ">")
    if before == value:
        same += 1
    else:
        print(f"differs: {name} {before} -> {value}")
print(f"{same} kernels as before, {len(kept)} kKeep kernels:")
for name, value in kept:
    print(f"  {name}: {value['regs']} registers, spill stores {value['spill'][1]}, loads {value['spill'][2]}")
