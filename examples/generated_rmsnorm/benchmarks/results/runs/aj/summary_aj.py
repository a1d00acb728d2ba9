"""Lab AJ's device times (aj/time_*.json) side by side: forward+backward of each variant over the
mean of the two base runs (base, then base again at the end), for each operator and case.
Usage: python3 summary_aj.py > summary.txt (in this folder)."""

import json
from pathlib import Path

here = Path(__file__).parent / "aj"
for op in ("fused_add_rms_norm", "fused_add_layer_norm"):
    runs = {}
    for path in sorted(here.glob(f"time_{op}_*.json")):
        for row in json.loads(path.read_text()):
            runs.setdefault(row["case"], {})[row["build"]] = (row["forward"], row["forward+backward"])
    variants = [v for v in ("st", "pf") if any(v in r for r in runs.values())]
    print(f"== {op}: device time, us (forward / forward+backward); ratio: forward+backward over base's mean")
    for case, r in runs.items():
        base = (r["base"][1] + r["base_again"][1]) / 2
        (f0, b0), (f1, b1) = r["base"], r["base_again"]
        cells = [f"base {f0:.1f} / {b0:.1f}, again {f1:.1f} / {b1:.1f}"]
        cells += [f"{v} {r[v][0]:.1f} / {r[v][1]:.1f} ({r[v][1] / base:.3f})" for v in variants]
        print(f"  {case:20} " + "; ".join(cells))
