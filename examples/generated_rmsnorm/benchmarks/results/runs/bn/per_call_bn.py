"""Call BN's per-call times (host launch included) against call BH2's tables (at a1e116f), in the
four norms' cells: how many came out more than 10% above, and how our device times moved in those.
Run from benchmarks/results: python3 runs/bn/per_call_bn.py (its output: runs/bn/per_call_bn.txt)."""

import json
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from norm_tables import FILES  # noqa: E402

BEFORE = "a1e116f"
PREFIX = "examples/generated_rmsnorm/benchmarks/results/"
FOUR = ("RMSNorm", "LayerNorm", "residual-add RMSNorm", "residual-add LayerNorm")

moved, cells, device = [], 0, []
for name in FOUR:
    path = FILES[name]
    old = json.loads(
        subprocess.run(
            ["git", "show", f"{BEFORE}:{PREFIX}{path}"], capture_output=True, text=True, check=True
        ).stdout
    )
    new = json.load(open(path))
    by_cell = {(r["dtype"], tuple(r["shape"]), r["pass"]): r for r in old["results"]}
    for r in new["results"]:
        o = by_cell[(r["dtype"], tuple(r["shape"]), r["pass"])]
        cells += 1
        per_call = r["ms"]["ours"] / o["ms"]["ours"]
        dev = r["device_ms"]["ours"] / o["device_ms"]["ours"]
        if per_call > 1.10:
            device.append(dev)
            moved.append(
                f"{name} {r['dtype']} {r['shape'][0]}x{r['shape'][1]} {r['pass']}: per call x{per_call:.2f}, "
                f"device x{dev:.3f}"
            )
print(
    f"{len(moved)} of {cells} cells more than 10% above call BH2's per-call time; our device time in them "
    f"{min(device):.3f} to {max(device):.3f} of call BH2's (median {statistics.median(device):.3f})"
)
print("\n".join(moved))
