"""Lab J1's comparison: device time of each cell, new (ForwardSums) over old (Chan's combination), per
round and project, from the benchmarks' JSON in j1/. Usage: python3 compare_j1.py [FOLDER]"""

import json
import sys
from pathlib import Path

folder = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "j1")


def cells(path):
    results = json.loads(path.read_text())["results"]
    return {(r["dtype"], "x".join(map(str, r["shape"])), r["pass"]): r for r in results}


for project in ("layer_norm", "fused_add_layer_norm", "rmsnorm"):
    rounds = sorted({p.name.split("_")[1] for p in folder.glob(f"bench_*_new_{project}.json")})
    print(f"== {project}: device us new / old (new's % of copy, old's), rounds {', '.join(rounds)}")
    for rnd in rounds:
        new = cells(folder / f"bench_{rnd}_new_{project}.json")
        old = cells(folder / f"bench_{rnd}_old_{project}.json")
        for key in new:
            n, o = new[key], old[key]
            ratio = n["device_ms"]["ours"] / o["device_ms"]["ours"]
            share = f"({n['pct_of_copy']['ours']:.1f}%, {o['pct_of_copy']['ours']:.1f}%)"
            print(
                f"round {rnd} {key[0]:9} {key[1]:11} {key[2]:17} {1e3 * n['device_ms']['ours']:8.1f} / "
                f"{1e3 * o['device_ms']['ours']:8.1f} = {ratio:.3f}  {share}"
            )
