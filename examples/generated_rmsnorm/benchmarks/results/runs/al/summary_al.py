"""Lab AL's device times side by side (al/: the unpacked res_al.tgz). Part 1: LayerNorm's
forward+backward and backward (forward+backward less forward) of each run over the mean of the two
base runs (base, then base again at the end; base alone, flagged, where the last run is missing),
for each case; the knob's 256 threads change only the clustered rows (1024 x 65536 and
2048 x 32768, and float32 4096 x 16384). Part 2: the residual-add LayerNorm's forward at eight
vectors a thread over the mean of its runs at four (al/time_fwd_*.json); only rows of 1025 to 2048
vectors change (float32 8192 x 8192 and 16384 x 6144, bfloat16 4096 x 16384 and 8192 x 12288), the
others are controls. Usage: python3 summary_al.py > summary.txt (in runs/al/)."""

import json
import sys
from pathlib import Path

here = Path(__file__).parent / "al"
paths = sorted(here.glob("time_*.json"))
if not paths:
    sys.exit(f"no time_*.json in {here}: tar xzf res_al.tgz -C al --strip-components=1")
runs, forward = {}, {}
for path in paths:
    for row in json.loads(path.read_text()):
        if path.name.startswith("time_fwd_"):
            forward.setdefault(row["case"], {})[row["build"]] = row["forward"]
        else:
            runs.setdefault(row["case"], {})[row["build"]] = (row["forward"], row["forward+backward"])

print("== layer_norm: device time, us (forward / forward+backward); ratios over base's mean:")
print("   forward+backward, then backward (forward+backward less forward)")
for case, r in runs.items():
    bases = [r[b] for b in ("base", "base_again") if b in r]
    if not bases:
        print(f"  {case:20} no base run: {sorted(r)}")
        continue
    fb = sum(b[1] for b in bases) / len(bases)
    bwd = sum(b[1] - b[0] for b in bases) / len(bases)
    cells = [", ".join(f"{b} {r[b][0]:.1f} / {r[b][1]:.1f}" for b in ("base", "base_again") if b in r)]
    if len(bases) == 1:
        cells[0] += " (one base run only)"
    for v in ("base_t256", "three", "three_t256", "shiftpf", "shiftpf_t256"):
        if v in r:
            f, b = r[v]
            cells.append(f"{v} {f:.1f} / {b:.1f} ({b / fb:.3f}, bwd {(b - f) / bwd:.3f})")
    print(f"  {case:20} " + "; ".join(cells))

print("== fused_add_layer_norm forward: device time, us; ratio: items 8 over items 4's mean")
for case, r in forward.items():
    fours = [r[b] for b in ("fwd_items4", "fwd_items4_again") if b in r]
    if not fours or "fwd_items8" not in r:
        print(f"  {case:20} incomplete: {sorted(r)}")
        continue
    four = sum(fours) / len(fours)
    items4 = ", ".join(f"{b} {r[b]:.1f}" for b in ("fwd_items4", "fwd_items4_again") if b in r)
    print(f"  {case:20} {items4}; items 8 {r['fwd_items8']:.1f} ({r['fwd_items8'] / four:.3f})")
