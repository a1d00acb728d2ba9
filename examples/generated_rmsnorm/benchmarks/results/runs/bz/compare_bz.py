# ruff: noqa: E501
"""Lab BZ's benchmarks side by side (run from runs/bz/): each variant's device time over base's in the
same call (base ran first and last; the ratio is taken against each, the larger reported), every cell
that is not host-bound (the benchmark's '-'), and the residual-add LayerNorm's float32 forward at
4096 x 16384 with its share of the copy rate.
    python3 compare_bz.py > compare_bz.txt"""

import json
from pathlib import Path

HERE = Path(__file__).parent / "bz"


def cells(name: str) -> dict:
    rows = json.loads((HERE / f"bench_{name}.json").read_text())["results"]
    return {(r["dtype"], tuple(r["shape"]), r["pass"]): r for r in rows}


bases = [cells("base"), cells("base_again")]
print(
    "variant  cells  worst (device time over base's, same call)            best                                     goal cell fwd (us, %copy)  its fwd+bwd (us)"
)
for variant in ("base_again", "wlast", "stcs", "ldcs", "all"):
    ours = cells(variant)
    ratios = []
    for key, row in ours.items():
        if row["host_bound"]:
            continue
        ratio = max(row["device_ms"]["ours"] / b[key]["device_ms"]["ours"] for b in bases)
        ratios.append((ratio, key))
    ratios.sort()
    worst, best = ratios[-1], ratios[0]
    goal = ours[("float32", (4096, 16384), "forward")]
    goal_bwd = ours[("float32", (4096, 16384), "forward+backward")]

    def name(k):
        return f"{k[0]} {k[1][0]}x{k[1][1]} {k[2]}"

    print(
        f"{variant:9} {len(ratios):4}  {worst[0]:.3f} {name(worst[1]):42} {best[0]:.3f} {name(best[1]):36}"
        f" {goal['device_ms']['ours'] * 1000:6.1f} {goal['pct_of_copy']['ours']:5.1f}%"
        f"        {goal_bwd['device_ms']['ours'] * 1000:6.1f}"
    )
