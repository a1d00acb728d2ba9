"""Lab AN's device times side by side (an/: the unpacked res_an.tgz): for each norm and case, the
forward and forward+backward of each build over the mean of the two base runs (base, then base again
after the variants; base alone, flagged, where the second is missing), with the backward
(forward+backward less forward) too; then the Nsight Compute lines of the three LayerNorm runs.
Usage: python3 summary_an.py > summary.txt (in runs/an/)."""

import json
import sys
from pathlib import Path

here = Path(__file__).parent / "an"
paths = sorted(here.glob("time_*.json"))
if not paths:
    sys.exit(f"no time_*.json in {here}: tar xzf res_an.tgz -C an --strip-components=1")
runs = {}  # op -> case -> build -> (forward, forward+backward)
for path in paths:
    for row in json.loads(path.read_text()):
        times = (row["forward"], row["forward+backward"])
        runs.setdefault(row["op"], {}).setdefault(row["case"], {})[row["build"]] = times

for op, cases in runs.items():
    print(f"== {op}: device time, us (forward / forward+backward);")
    print("   over base's mean: forward, forward+backward, backward")
    for case, r in cases.items():
        bases = [r[b] for b in ("base", "base_again") if b in r]
        if not bases:
            print(f"  {case:20} no base run: {sorted(r)}")
            continue
        f0 = sum(b[0] for b in bases) / len(bases)
        fb0 = sum(b[1] for b in bases) / len(bases)
        bwd0 = fb0 - f0
        cells = [", ".join(f"{b} {r[b][0]:.1f} / {r[b][1]:.1f}" for b in ("base", "base_again") if b in r)]
        if len(bases) == 1:
            cells[0] += " (one base run only)"
        for v in ("am", "an", "an2"):
            if v in r:
                f, fb = r[v]
                ratios = f"{f / f0:.3f}, {fb / fb0:.3f}, bwd {(fb - f) / bwd0:.3f}"
                cells.append(f"{v} {f:.1f} / {fb:.1f} ({ratios})")
        print(f"  {case:20} " + "; ".join(cells))

for run in ("base", "an", "an2"):
    path = here / f"ncu_layer_norm_{run}.txt"
    if not path.exists():
        print(f"== ncu {run}: not run")
        continue
    print(f"== ncu {run} (bfloat16 LayerNorm backward at 1024 x 65536)")
    for line in path.read_text().splitlines():
        cells = [c.strip('"') for c in line.split('","')]
        if len(cells) > 14 and "backward_kernel" in cells[4]:
            print(f"  {cells[12]}: {cells[14]} {cells[13]}")
