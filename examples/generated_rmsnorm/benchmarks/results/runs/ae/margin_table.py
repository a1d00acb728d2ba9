"""Labs AE to AE3's far_margin.py results as one table: for each project, shape and far-column count,
y's worst ratio of error to the far-row test's allowance over the 20 draws, for each variant (bs:
branch issue11-backward-shift, main's forward; ff, fg, fg4: the forward's mends; land: the branch as it
will land), and the largest ratio of any gradient. Usage: python3 margin_table.py (from this folder)."""

import json
from pathlib import Path

rows = [
    json.loads(line)
    for f in ("ae/margin.jsonl", "ae2/margin.jsonl", "ae3/margin.jsonl")
    for line in Path(f).read_text().splitlines()
]
labels = list(dict.fromkeys(r["label"] for r in rows))
cells = {}
for r in rows:
    cells.setdefault((r["project"], tuple(r["shape"]), r["far_columns"]), {})[r["label"]] = r["worst"]
print(
    f"{'project':21} {'shape':13} far  "
    + "  ".join(f"{label + ' y':>7}" for label in labels)
    + "  gradients (max over variants)"
)
for (project, shape, far), found in cells.items():
    ys = "  ".join(f"{found[label]['y']:7.3f}" if label in found else f"{'-':>7}" for label in labels)
    grads = max(v for worst in found.values() for k, v in worst.items() if k.startswith("grad"))
    print(f"{project:21} {'x'.join(map(str, shape)):13} {far:3}  {ys}  {grads:.3f}")
