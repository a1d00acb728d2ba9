# ruff: noqa: E501
"""Lab AU1's summary (issue 11): the device times of the unpacked folder (../lab_summary.py: each run's
forward and forward+backward over the mean of the two uncapped runs, with the backward), the row groups
each run's backward took, and the main lines of each Nsight Compute file (ncu_*.txt).
The row groups, from the bytes one forward+backward requests at its peak beyond its inputs
(../e/e_time.py's requested_peak_bytes, exact sizes): whole M x N tensors (the outputs and
gradients), plus the float32 workspace of groups x N floats (less than one such tensor at these
shapes), grad_weight (N x 2 bytes) and the saved rstd (M x 4): so groups = (peak modulo one M x N
tensor - 2 N - 4 M) / 4 N, printed to a tenth (a whole number where the reading holds). Records
without requested_peak_bytes fall back to peak_mib, the allocator's blocks, which may be larger
(lab AT4's float32 4096 x 1024 read as 1024 groups where the kernel holds at most 792): marked "~".
The per-multiprocessor figure assumes one row group a block and no cluster, as at AU1's shapes.
Usage, in runs/au/: python3 summary_au.py au1 > summary_au1.txt; another lab's folder and variants
(lab AV2, in runs/av/): python3 ../au/summary_au.py ../av/av2 noshift > summary_av2.txt"""

import json
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import lab_summary  # noqa: E402

folder = here / sys.argv[1]
RUNS = tuple(sys.argv[2:]) or ("c396", "c264", "c132")
lab_summary.print_times(lab_summary.load(folder, f"res_{folder.name}.tgz"), "base", RUNS)
groups: dict = {}
ITEMSIZE = {"bfloat16": 2, "float16": 2, "float32": 4}
for path in sorted(folder.glob("time_*.json")):
    for row in json.loads(path.read_text()):
        if "peak_mib" not in row:
            continue
        dtype, shape = row["case"].split()
        rows, cols = (int(d) for d in shape.split("x"))
        tensor = rows * cols * ITEMSIZE[dtype]
        if "requested_peak_bytes" in row:
            extra = row["requested_peak_bytes"]["ours"] % tensor - cols * ITEMSIZE[dtype] - rows * 4
            mark = ""
        else:
            extra = round(row["peak_mib"]["ours"] * 2**20) % tensor
            mark = "~"
        groups.setdefault(row["op"], {}).setdefault(row["case"], {})[row["build"]] = (
            extra / (cols * 4),
            mark,
        )
for op, cases in groups.items():
    print(
        f"== {op}: row groups of the backward (132 multiprocessors; '= base': as base's, the cap changed nothing)"
    )
    for case, builds in cases.items():
        base = builds.get("base", (None, ""))[0]
        cells = []
        for b, (g, mark) in builds.items():
            same = " = base" if b != "base" and base is not None and round(g) == round(base) else ""
            cells.append(f"{b} {mark}{g:.1f} ({g / 132:.1f} a multiprocessor){same}")
        print(f"  {case:20} " + "; ".join(cells))
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
    text = path.read_text()
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("==PROF==", "==ERROR==", "==WARNING==")) or "backward_kernel" in stripped:
            print("  " + " ".join(line.split())[:200])
        elif any(stripped.startswith(key) for key in KEYS):
            print("  " + " ".join(line.split()))
    if "Duration" not in text:
        print("  NO KERNEL PROFILED")
