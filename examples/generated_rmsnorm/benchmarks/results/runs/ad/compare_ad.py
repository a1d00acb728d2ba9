"""Lab AD/AD2's results.jsonl as a table: each cell's microseconds for each variant (every round),
and each variant's best over main's best. Usage: python3 compare_ad.py RESULTS.jsonl [BASE]."""

import collections
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1])]
base = sys.argv[2] if len(sys.argv) > 2 else "main"
labels = list(dict.fromkeys(r["label"] for r in rows))
times = collections.defaultdict(list)
for r in rows:
    times[(r["project"], r["kind"], tuple(r["shape"]), r["dtype"], r["pass"], r["label"])].append(r["us"])
cells = list(dict.fromkeys(k[:5] for k in times))
for cell in cells:
    project, kind, shape, dtype, pass_name = cell
    found = {label: times[(*cell, label)] for label in labels if times.get((*cell, label))}
    text = "  ".join(f"{label} {'/'.join(f'{v:.1f}' for v in found[label])}" for label in found)
    ratios = "  ".join(
        f"{label}/{base} {min(found[label]) / min(found[base]):.3f}"
        for label in found
        if label != base and base in found
    )
    print(f"{project:21} {kind:7} {'x'.join(map(str, shape)):11} {dtype:8} {pass_name:16} {text}  {ratios}")
