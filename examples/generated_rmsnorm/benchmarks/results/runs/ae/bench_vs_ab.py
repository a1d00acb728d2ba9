"""Lab AE3's benchmarks of LayerNorm and the residual-add LayerNorm (branch issue11-backward-shift at
ae5c215, one H200) beside call AB's, the records on main (../../norms/NAME/): each cell's share of the
copy rate (pct_of_copy, device time) in both, and AE3's time over each peer's in AE3's run (below 1:
ours faster). Cells of the issue's goals marked with their goal. Usage: python3 bench_vs_ab.py."""

import json
from pathlib import Path

GOALS = {(32768, 4096): (90, 85), (8192, 8192): (90, 85), (4096, 16384): (90, 85), (1024, 65536): (80, 80)}
for name in ("layer_norm", "fused_add_layer_norm"):
    new = json.loads(Path(f"ae3/{name}/bench_{name}.json").read_text())
    old = json.loads(Path(f"../../norms/{name}/bench_{name}.json").read_text())
    before = {(r["dtype"], tuple(r["shape"]), r["pass"]): r for r in old["results"]}
    print(f"{name}: AE3 {new['meta']['date']} against call AB {old['meta']['date']}")
    for r in new["results"]:
        shape = tuple(r["shape"])
        was = before[(r["dtype"], shape, r["pass"])]
        goal = GOALS.get(shape, (None, None))[r["pass"] != "forward"]
        mark = f"goal {goal}%" if goal else ""
        ours = r["device_ms"]["ours"]
        peers = "  ".join(f"{k} {ours / v:.2f}" for k, v in r["device_ms"].items() if k != "ours")
        cell = f"{r['dtype']:9} {'x'.join(map(str, shape)):11} {r['pass']:16}"
        shares = f"AE3 {r['pct_of_copy']['ours']:6.1f}%  AB {was['pct_of_copy']['ours']:6.1f}%"
        print(f"  {cell} {shares}  {mark:9}  ours/peer: {peers}")
