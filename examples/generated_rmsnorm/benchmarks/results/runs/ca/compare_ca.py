# ruff: noqa: E501
"""Lab CA's benchmarks side by side (run from runs/ca/): each build's device time over its project's
base's in the same call (the residual-add LayerNorm's base ran first and last: the larger ratio of
the two is reported), every cell that is not host-bound (the benchmark's '-'), and the float32
forward and forward+backward at 4096 x 16384 with the forward's share of the copy rate.
    python3 compare_ca.py > compare_ca.txt"""

import json
from pathlib import Path

HERE = Path(__file__).parent / "ca"


def cells(name: str) -> dict:
    rows = json.loads((HERE / f"bench_{name}.json").read_text())["results"]
    return {(r["dtype"], tuple(r["shape"]), r["pass"]): r for r in rows}


def name(k) -> str:
    return f"{k[0]} {k[1][0]}x{k[1][1]} {k[2]}"


RUNS = {
    "fused_add_layer_norm": (["base", "base_again"], ["base_again", "wlast", "wrr"]),
    "layer_norm": (["base"], ["wlast"]),
}
print(
    "project              build       cells  worst (over base's)                        best                                 4096x16384 fp32 fwd us  %copy  fwd+bwd us"
)
for project, (base_names, builds) in RUNS.items():
    bases = [cells(f"{project}_{b}") for b in base_names]
    for build in ["base", *builds]:
        ours = cells(f"{project}_{build}")
        ratios = sorted(
            (max(row["device_ms"]["ours"] / b[key]["device_ms"]["ours"] for b in bases), key)
            for key, row in ours.items()
            if not row["host_bound"]
        )
        goal = ours[("float32", (4096, 16384), "forward")]
        both = ours[("float32", (4096, 16384), "forward+backward")]
        print(
            f"{project:20} {build:10} {len(ratios):5}  {ratios[-1][0]:.3f} {name(ratios[-1][1]):38} {ratios[0][0]:.3f} {name(ratios[0][1]):32}"
            f" {goal['device_ms']['ours'] * 1000:8.1f}  {goal['pct_of_copy']['ours']:5.1f}%  {both['device_ms']['ours'] * 1000:8.1f}"
        )
