"""Lab CD's Nsight Compute records (cd/*.csv, lab_cd.sh) side by side: for each operator and dtype,
ours against torch.compile's forward kernel at 4096 x 1024 (one call of each, the caches flushed
before each replay, clocks as they ran: --clock-control none). Usage: python3 ncu_cd.py > ncu_cd.txt"""

import csv
import re
from pathlib import Path

HERE = Path(__file__).parent
METRICS = [  # (section, metric, label)
    ("GPU Speed Of Light Throughput", "Duration", "duration"),
    ("GPU Speed Of Light Throughput", "Elapsed Cycles", "elapsed cycles"),
    ("GPU Speed Of Light Throughput", "SM Active Cycles", "SM active cycles (mean)"),
    ("GPU Speed Of Light Throughput", "SM Frequency", "SM clock"),
    ("GPU Speed Of Light Throughput", "DRAM Throughput", "DRAM throughput"),
    ("Memory Workload Analysis", "L2 Hit Rate", "L2 hit rate"),
    ("Launch Statistics", "Grid Size", "grid"),
    ("Launch Statistics", "Block Size", "block"),
    ("Launch Statistics", "Registers Per Thread", "registers"),
    ("Occupancy", "Theoretical Occupancy", "theoretical occupancy"),
    ("Occupancy", "Achieved Occupancy", "achieved occupancy"),
    ("Launch Statistics", "Waves Per SM", "waves"),
    ("Instruction Statistics", "Executed Instructions", "executed instructions"),
    ("Compute Workload Analysis", "Issued Ipc Active", "issued IPC (active)"),
    ("Scheduler Statistics", "Eligible Warps Per Scheduler", "eligible warps a scheduler"),
    ("Warp State Statistics", "Warp Cycles Per Issued Instruction", "cycles between a warp's issues"),
    ("Source Counters", "Branch Instructions", "branch instructions"),
]


def load(path: Path) -> tuple[str, dict]:
    rows = list(csv.reader(line for line in path.open() if line.startswith('"')))
    header = {name: i for i, name in enumerate(rows[0])}
    names = {row[header["Kernel Name"]] for row in rows[1:]}
    assert len(names) == 1, f"{path.name}: one kernel expected, got {sorted(names)}"
    values = {}
    for row in rows[1:]:
        key = (row[header["Section Name"]], row[header["Metric Name"]])
        values[key] = f"{row[header['Metric Value']]} {row[header['Metric Unit']]}".strip()
    name = re.sub(r"\(anonymous namespace\)::|\b[a-z_0-9]+::|\(.*", "", names.pop())
    return name, values


for op, dtype in (("layer_norm", "bfloat16"), ("layer_norm", "float16"), ("rms_norm", "bfloat16")):
    ours_name, ours = load(HERE / "cd" / f"{op}_{dtype}_4096x1024_ours.csv")
    compile_name, compiled = load(HERE / "cd" / f"{op}_{dtype}_4096x1024_compile.csv")
    print(f"== {op} {dtype} 4096x1024 forward: ours {ours_name}; torch.compile {compile_name}")
    print(f"   {'':32} {'ours':>24} {'torch.compile':>24}")
    for section, metric, label in METRICS:
        mine, theirs = ours.get((section, metric), "-"), compiled.get((section, metric), "-")
        print(f"   {label:32} {mine:>24} {theirs:>24}")
    print()
