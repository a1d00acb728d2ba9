"""Lab BB0's raw Nsight Compute pages (bb0/*_raw.csv: a column a metric, a row a profiled kernel),
a few lines a kernel: its duration, the DRAM bytes it read and wrote (against the bytes the operator
must move: ours and the peer's should match), and the stall reasons that cost it most, in warps
stalled for each instruction issued (the WarpStateStats section's
smsp__average_warps_issue_stalled_*_per_issue_active.ratio, whichever of them this ncu collected).
Usage: python3 bb0/stalls_bb0.py bb0/bb0/*_raw.csv (from runs/)."""

import csv
import re
import sys

STALL = re.compile(r"smsp__average_warps_issue_stalled_(\w+?)_per_issue_active\.ratio")


def number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


for path in sys.argv[1:]:
    rows = list(csv.reader(line for line in open(path) if line.startswith('"')))
    name = path.split("/")[-1].removesuffix("_raw.csv")
    if len(rows) < 3:  # a header, the units, then a row a kernel
        print(f"== {name}: no kernel profiled")
        continue
    header, units = rows[0], rows[1]
    column = {metric: i for i, metric in enumerate(header)}
    print(f"== {name}")
    for row in rows[2:]:
        kernel = re.sub(
            r"\(.*", "", re.sub(r"\(anonymous namespace\)::|\b[a-z_0-9]+::", "", row[column["Kernel Name"]])
        )
        parts = []
        for metric, label in [
            ("gpu__time_duration.sum", "duration"),
            ("dram__bytes_read.sum", "DRAM read"),
            ("dram__bytes_write.sum", "DRAM written"),
        ]:
            if metric in column:
                parts.append(f"{label} {row[column[metric]]} {units[column[metric]]}")
        stalls = []
        for metric, i in column.items():
            match = STALL.fullmatch(metric)
            if match and number(row[i]) is not None:
                stalls.append((number(row[i]), match.group(1)))
        stalls.sort(reverse=True)
        print(f"  {kernel}")
        print("    " + "; ".join(parts))
        print("    stalls: " + ", ".join(f"{reason} {value:.2f}" for value, reason in stalls[:6]))
