"""Lab AD's far_penalty_ad.txt: for each cell of kinds one_far and massive, the best forward+backward of
its two rounds less that of tame rows, for main and new.

Usage: python3 far_penalty.py > far_penalty_ad.txt."""

import collections
import json
from pathlib import Path

rows = [json.loads(line) for line in (Path(__file__).parent / "ad" / "results.jsonl").open()]
best = collections.defaultdict(lambda: float("inf"))
for r in rows:
    key = (r["project"], r["kind"], "x".join(map(str, r["shape"])), r["dtype"], r["pass"], r["label"])
    best[key] = min(best[key], r["us"])
print("Lab AD (forward+backward, y.backward(dy), which in the graph also adds each gradient into .grad): the")
print("best of two rounds of each kind less that of tame rows, for main (a540e22) and new (4bb1afd).")
for (project, kind, shape, dtype, pass_name, label), us in sorted(best.items()):
    if kind == "tame" or pass_name != "forward+backward":
        continue
    tame = best[(project, "tame", shape, dtype, pass_name, label)]
    print(
        f"{project:21} {kind:8} {shape:11} {dtype:9} {label:5} tame {tame:8.1f} us  {kind} {us:8.1f} us  "
        f"extra {us - tame:7.1f} us"
    )
