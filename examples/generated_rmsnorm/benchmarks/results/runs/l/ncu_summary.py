"""Lab L3's Nsight Compute records (l3/*.csv), a few metrics a kernel: which kernel ran (template
arguments: the norm, x's and the parameters' dtypes, then for backward_kernel kVec, kItems,
kInRegisters, kStages, kShifted, kClustered), its launch (grid, block, cluster, shared memory), its
duration and DRAM throughput (ncu replays each kernel with the caches flushed, unlike the
benchmark's back-to-back calls), occupancy, registers and local-memory spill requests.
Usage: python3 ncu_summary.py l3/*.csv. ncu_l3.txt is what it printed before lab BB0; since, it also
prints the theoretical occupancy, the waves a multiprocessor, the SM active and elapsed cycles (their
gap is the last wave's tail), the L2 hit rate and the SM clock (ncu ran with the clocks unlocked),
and drops every namespace: lab BB0 reads its details pages, Liger-Kernel's and torch.compile's
Triton kernels among them, with it."""

import collections
import csv
import re
import sys

METRICS = [
    ("Duration", "duration"),
    ("DRAM Throughput", "DRAM"),
    ("Grid Size", "grid"),
    ("Block Size", "block"),
    ("Cluster Size", "cluster"),
    ("Dynamic Shared Memory Per Block", "dynamic smem"),
    ("Registers Per Thread", "registers"),
    ("Theoretical Occupancy", "theoretical occupancy"),
    ("Achieved Occupancy", "occupancy"),
    ("Waves Per SM", "waves"),
    ("SM Active Cycles", "SM active cycles"),
    ("Elapsed Cycles", "elapsed cycles"),
    ("L2 Hit Rate", "L2 hits"),
    ("SM Frequency", "SM clock"),
    ("Local Memory Spilling Requests", "spill requests"),
    ("Warp Cycles Per Issued Instruction", "cycles/issue"),
]

for path in sys.argv[1:]:
    rows = list(csv.reader(line for line in open(path) if line.startswith('"')))
    if not rows:  # ncu profiled nothing (see the case's .err)
        print(f"== {path.split('/')[-1].removesuffix('.csv')}: no kernel profiled")
        continue
    header = {name: i for i, name in enumerate(rows[0])}
    kernels = collections.OrderedDict()
    for row in rows[1:]:
        kernel = kernels.setdefault((row[header["ID"]], row[header["Kernel Name"]]), {})
        kernel[row[header["Metric Name"]]] = row[header["Metric Value"]] + row[header["Metric Unit"]]
    print(f"== {path.split('/')[-1].removesuffix('.csv')}")
    for (_, name), metrics in kernels.items():
        name = re.sub(r"\(anonymous namespace\)::|\b[a-z_0-9]+::", "", name)  # namespaces
        name = re.sub(r"\(.*", "", name)
        print(f"  {name}")
        print("    " + "; ".join(f"{label} {metrics[m]}" for m, label in METRICS if m in metrics))
