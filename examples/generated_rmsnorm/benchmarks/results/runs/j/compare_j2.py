"""Lab J2's comparison: device time of each cell for S and SA over old, per round and project, from the
benchmarks' JSON in j2/. Usage: python3 compare_j2.py [FOLDER]"""

import json
import sys
from pathlib import Path

folder = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "j2")


def cells(path):
    results = json.loads(path.read_text())["results"]
    return {(r["dtype"], "x".join(map(str, r["shape"])), r["pass"]): r for r in results}


for project in ("layer_norm", "fused_add_layer_norm", "rmsnorm"):
    rounds = sorted({p.name.split("_")[1] for p in folder.glob(f"bench_*_old_{project}.json")})
    heading = "device us old, S, SA; S / old, SA / old; % of copy old, S, SA; rounds"
    print(f"== {project}: {heading} {', '.join(rounds)}")
    for rnd in rounds:
        runs = {v: folder / f"bench_{rnd}_{v}_{project}.json" for v in ("old", "S", "SA")}
        got = {v: cells(p) for v, p in runs.items() if p.exists()}
        for key in got["old"]:
            us = {v: 1e3 * got[v][key]["device_ms"]["ours"] for v in got}
            pct = {v: got[v][key]["pct_of_copy"]["ours"] for v in got}
            ratios = "  ".join(f"{us[v] / us['old']:.3f}" if v in us else "    -" for v in ("S", "SA"))
            times = " ".join(f"{us[v]:7.1f}" if v in us else "      -" for v in ("old", "S", "SA"))
            pcts = " ".join(f"{pct[v]:5.1f}" if v in pct else "    -" for v in ("old", "S", "SA"))
            print(f"round {rnd} {key[0]:9} {key[1]:11} {key[2]:17} {times}   {ratios}   ({pcts})")
