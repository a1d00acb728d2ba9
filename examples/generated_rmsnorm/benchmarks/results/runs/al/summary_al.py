"""Lab AL's device times (al/time_*.json) side by side: forward+backward of `three` over the mean of
the two base runs (base, then base again at the end), for each case.
Usage: python3 summary_al.py > summary.txt (in this folder)."""

import json
from pathlib import Path

runs = {}
for path in sorted((Path(__file__).parent / "al").glob("time_*.json")):
    for row in json.loads(path.read_text()):
        runs.setdefault(row["case"], {})[row["build"]] = (row["forward"], row["forward+backward"])
print("== layer_norm: device time, us (forward / forward+backward); ratio: three's over base's mean")
for case, r in runs.items():
    if not {"base", "base_again", "three"} <= r.keys():
        print(f"  {case:20} incomplete: {sorted(r)}")
        continue
    (f0, b0), (f1, b1), (f2, b2) = r["base"], r["base_again"], r["three"]
    ratio = b2 / ((b0 + b1) / 2)
    base = f"base {f0:.1f} / {b0:.1f}, again {f1:.1f} / {b1:.1f}"
    print(f"  {case:20} {base}; three {f2:.1f} / {b2:.1f} ({ratio:.3f})")
