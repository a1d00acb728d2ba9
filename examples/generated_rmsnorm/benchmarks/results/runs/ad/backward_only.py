"""Lab AD2/AD3: each variant's backward alone, as its forward+backward less its forward (best of the
rounds of each), over main's, for one kind. Usage: python3 backward_only.py RESULTS.jsonl KIND."""

import collections
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1])]
best = collections.defaultdict(lambda: float("inf"))
for r in rows:
    if r["kind"] == sys.argv[2]:
        key = (r["project"], "x".join(map(str, r["shape"])), r["dtype"], r["pass"], r["label"])
        best[key] = min(best[key], r["us"])
labels = list(dict.fromkeys(r["label"] for r in rows))
for project, shape, dtype in dict.fromkeys(k[:3] for k in best):
    back = {
        v: best[(project, shape, dtype, "forward+backward", v)] - best[(project, shape, dtype, "forward", v)]
        for v in labels
    }
    cells = "  ".join(f"{v} {back[v]:7.1f}" for v in labels)
    ratios = "  ".join(f"{v}/main {back[v] / back['main']:.3f}" for v in labels if v != "main")
    print(f"{project:21} {shape:11} {dtype:9} {cells}  {ratios}")
