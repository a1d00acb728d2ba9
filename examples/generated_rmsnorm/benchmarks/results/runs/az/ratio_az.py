"""Lab AZ's cost of the backward without its workspace by the rows a row group has for each kept
row (issue 11, session 47). For each case whose peak memory without the workspace came out below
its peak with it (e_time.py's peak_mib, B_PEAK=1: the kept-rows kernel ran), the row groups are that
difference over one float32 row of N a parameter (two with LayerNorm's bias), and the rows a kept row
rows / (groups x kept rows) (kept rows: one in float32, two in bfloat16, twice as many with a bias);
the cost is the forward+backward's device time without the workspace over the mean of the two runs
with it. Cases whose peak did not move took the workspace both ways. Run from runs/: python3
az/ratio_az.py > az/ratio_az.txt; another lab's folder of az/ (lab AZ2's): python3 az/ratio_az.py
az2 > az/ratio_az2.txt"""

import json
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
cases = {}
folder = here / (sys.argv[1] if len(sys.argv) > 1 else "az")
for path in sorted(folder.glob("time_*.json")):
    for row in json.loads(path.read_text()):
        cases.setdefault((row["op"], row["case"]), {})[row["build"]] = row
print("op, case, row groups, rows a kept row, forward+backward without the workspace over with it")
for (op, case), runs in sorted(cases.items(), key=lambda item: (item[0][0], item[0][1])):
    dtype, shape = case.split()
    rows, cols = (int(d) for d in shape.split("x"))
    params = 2 if op == "layer_norm" else 1
    kept = params * (2 if dtype == "bfloat16" else 1)
    freed = (runs["base"]["peak_mib"]["ours"] - runs["keep"]["peak_mib"]["ours"]) * 2**20
    base = (runs["base"]["forward+backward"] + runs["base_again"]["forward+backward"]) / 2
    cost = runs["keep"]["forward+backward"] / base
    if freed <= 0:
        print(f"{op:20} {case:19} the workspace both ways{'':20} {cost:.3f}")
        continue
    groups = freed / (cols * 4 * params)
    print(f"{op:20} {case:19} {groups:6.1f} groups  {rows / groups / kept:6.2f} rows a kept row  {cost:.3f}")
