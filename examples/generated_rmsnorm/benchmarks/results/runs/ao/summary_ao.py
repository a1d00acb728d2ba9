"""Lab AO's device times side by side (ao/: the unpacked res_ao.tgz): for each norm and case, the
forward and forward+backward of each build over the mean of the two an2 runs (an2, then an2 again
after db; an2 alone, flagged, where the second is missing), with the backward
(forward+backward less forward) too.
Usage: python3 summary_ao.py > summary.txt (in runs/ao/)."""

import json
import sys
from pathlib import Path

here = Path(__file__).parent / "ao"
paths = sorted(here.glob("time_*.json"))
if not paths:
    sys.exit(f"no time_*.json in {here}: tar xzf res_ao.tgz -C ao --strip-components=1")
runs = {}  # op -> case -> build -> (forward, forward+backward)
for path in paths:
    for row in json.loads(path.read_text()):
        times = (row["forward"], row["forward+backward"])
        runs.setdefault(row["op"], {}).setdefault(row["case"], {})[row["build"]] = times

for op, cases in runs.items():
    print(f"== {op}: device time, us (forward / forward+backward);")
    print("   over an2's mean: forward, forward+backward, backward")
    for case, r in cases.items():
        bases = [r[b] for b in ("an2", "an2_again") if b in r]
        if not bases:
            print(f"  {case:20} no an2 run: {sorted(r)}")
            continue
        f0 = sum(b[0] for b in bases) / len(bases)
        fb0 = sum(b[1] for b in bases) / len(bases)
        bwd0 = fb0 - f0
        cells = [", ".join(f"{b} {r[b][0]:.1f} / {r[b][1]:.1f}" for b in ("an2", "an2_again") if b in r)]
        if len(bases) == 1:
            cells[0] += " (one an2 run only)"
        for v in ("db",):
            if v in r:
                f, fb = r[v]
                ratios = f"{f / f0:.3f}, {fb / fb0:.3f}, bwd {(fb - f) / bwd0:.3f}"
                cells.append(f"{v} {f:.1f} / {fb:.1f} ({ratios})")
        print(f"  {case:20} " + "; ".join(cells))
