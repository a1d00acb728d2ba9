"""Lab AL's device times (al/time_*.json) side by side: LayerNorm's forward+backward of each run
over the mean of the two base runs (base, then base again at the end), for each case; then the
residual-add LayerNorm's forward at eight vectors a thread over the mean of its two runs at four
(al/time_fwd_*.json).
Usage: python3 summary_al.py > summary.txt (in this folder)."""

import json
from pathlib import Path

runs = {}
for path in sorted((Path(__file__).parent / "al").glob("time_*.json")):
    if path.name.startswith("time_fwd_"):
        continue
    for row in json.loads(path.read_text()):
        runs.setdefault(row["case"], {})[row["build"]] = (row["forward"], row["forward+backward"])
print("== layer_norm: device time, us (forward / forward+backward); ratio: over base's mean")
for case, r in runs.items():
    if not {"base", "base_again"} <= r.keys():
        print(f"  {case:20} incomplete: {sorted(r)}")
        continue
    (f0, b0), (f1, b1) = r["base"], r["base_again"]
    base = (b0 + b1) / 2
    cells = [f"base {f0:.1f} / {b0:.1f}, again {f1:.1f} / {b1:.1f}"]
    cells += [
        f"{v} {r[v][0]:.1f} / {r[v][1]:.1f} ({r[v][1] / base:.3f})"
        for v in ("base_t256", "three", "three_t256")
        if v in r
    ]
    print(f"  {case:20} " + "; ".join(cells))

forward = {}
for path in sorted((Path(__file__).parent / "al").glob("time_fwd_*.json")):
    for row in json.loads(path.read_text()):
        forward.setdefault(row["case"], {})[row["build"]] = row["forward"]
print("== fused_add_layer_norm forward: device time, us; ratio: items 8 over items 4's mean")
for case, r in forward.items():
    if not {"fwd_items4", "fwd_items4_again", "fwd_items8"} <= r.keys():
        print(f"  {case:20} incomplete: {sorted(r)}")
        continue
    four = (r["fwd_items4"] + r["fwd_items4_again"]) / 2
    items4 = f"items 4 {r['fwd_items4']:.1f}, again {r['fwd_items4_again']:.1f}"
    print(f"  {case:20} {items4}; items 8 {r['fwd_items8']:.1f} ({r['fwd_items8'] / four:.3f})")
