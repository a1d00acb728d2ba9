# ruff: noqa: E501
"""Lab AU1's summary (issue 11): the device times of the unpacked folder (../lab_summary.py: each run's
forward and forward+backward over the mean of the two uncapped runs, with the backward), the row groups
each run's backward took, estimated from its peak memory (ours, beyond the inputs: whole M x N
tensors of the outputs and gradients, plus the float32 workspace of groups x N floats, which is less
than one such tensor at these shapes, plus statistics and the parameters' gradients, under 0.2 MiB:
so the workspace is about the peak modulo one M x N tensor), and the main lines of each Nsight Compute
file (ncu_*.txt).
Usage, in runs/au/: python3 summary_au.py au1 > summary_au1.txt"""

import json
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import lab_summary  # noqa: E402

folder = here / sys.argv[1]
RUNS = ("c396", "c264", "c132")
lab_summary.print_times(lab_summary.load(folder, f"res_{folder.name}.tgz"), "base", RUNS)
groups: dict = {}
ITEMSIZE = {"bfloat16": 2, "float16": 2, "float32": 4}
for path in sorted(folder.glob("time_*.json")):
    for row in json.loads(path.read_text()):
        if "peak_mib" in row:
            dtype, shape = row["case"].split()
            rows, cols = (int(d) for d in shape.split("x"))
            tensor = rows * cols * ITEMSIZE[dtype]
            workspace = round(row["peak_mib"]["ours"] * 2**20) % tensor
            groups.setdefault(row["op"], {}).setdefault(row["case"], {})[row["build"]] = round(
                workspace / (cols * 4)
            )
for op, cases in groups.items():
    print(f"== {op}: row groups of the backward, from the peak memory (about; 132 multiprocessors)")
    for case, builds in cases.items():
        print(
            f"  {case:20} "
            + "; ".join(f"{b} {g} ({g / 132:.1f} a multiprocessor)" for b, g in builds.items())
        )
KEYS = (
    "Duration",
    "DRAM Throughput",
    "Memory Throughput",
    "Registers Per Thread",
    "Block Limit",
    "Waves Per SM",
)
KEYS += (
    "Theoretical Occupancy",
    "Achieved Occupancy",
    "Dynamic Shared Memory Per Block",
    "Grid Size",
    "Block Size",
)
for path in sorted(folder.glob("ncu_*.txt")):
    print(f"== {path.name}")
    for line in path.read_text().splitlines():
        if any(line.strip().startswith(key) for key in KEYS):
            print("  " + " ".join(line.split()))
