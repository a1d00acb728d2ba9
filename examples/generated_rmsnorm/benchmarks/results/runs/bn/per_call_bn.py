"""Call BN's per-call times (host launch included; its tables at afec7ed) against call BH2's tables
(at a1e116f), in the four norms' cells: how many came out more than 10% above, and how our device
times moved in those. Run from benchmarks/results: python3 runs/bn/per_call_bn.py (its output:
runs/bn/per_call_bn.txt). `compare` serves later calls too (runs/cb/per_call_cb.py)."""

import json
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from norm_tables import FILES  # noqa: E402

PREFIX = "examples/generated_rmsnorm/benchmarks/results/"
FOUR = ("RMSNorm", "LayerNorm", "residual-add RMSNorm", "residual-add LayerNorm")


def _at(commit: str | None, path: str) -> dict:
    if commit is None:  # the working tree's
        return json.load(open(path))
    shown = subprocess.run(
        ["git", "show", f"{commit}:{PREFIX}{path}"], capture_output=True, text=True, check=True
    )
    return json.loads(shown.stdout)


def compare(before: str, after: str | None, label: str, files: dict[str, str]) -> None:
    """Print the cells of the tables in `files` (name: path under benchmarks/results) at commit
    `after` (None: the working tree) whose per-call time came out more than 10% above the same
    file's at commit `before` (call `label`'s tables)."""
    moved, cells, device = [], 0, []
    for name, path in files.items():
        old, new = _at(before, path), _at(after, path)
        by_cell = {(r["dtype"], tuple(r["shape"]), r["pass"]): r for r in old["results"]}
        for r in new["results"]:
            o = by_cell[(r["dtype"], tuple(r["shape"]), r["pass"])]
            cells += 1
            per_call = r["ms"]["ours"] / o["ms"]["ours"]
            dev = r["device_ms"]["ours"] / o["device_ms"]["ours"]
            if per_call > 1.10:
                device.append(dev)
                moved.append(
                    f"{name} {r['dtype']} {r['shape'][0]}x{r['shape'][1]} {r['pass']}: "
                    f"per call x{per_call:.2f}, device x{dev:.3f}"
                )
    print(
        f"{len(moved)} of {cells} cells more than 10% above call {label}'s per-call time; our device time "
        f"in them {min(device):.3f} to {max(device):.3f} of call {label}'s "
        f"(median {statistics.median(device):.3f})"
    )
    print("\n".join(moved))


if __name__ == "__main__":
    compare("a1e116f", "afec7ed", "BH2", {name: FILES[name] for name in FOUR})
