"""How many rows of a random 4096 x 16384 x (randn, rounded to bfloat16 or float16, as the benchmark and
modes.py draw it) lie far from their first element in the sense of the CUDA backward's test (kFarShift:
(x[0] - mean)^2 > 16 variance, sums about x[0] in float32), over SETS draws. Usage: python3
far_rows_draw.py [SETS] (CPU; 200 by default)."""

import collections
import sys

import torch

sets = int(sys.argv[1]) if len(sys.argv) > 1 else 200
torch.manual_seed(0)
for dtype in (torch.bfloat16, torch.float16):
    counts = []
    for _ in range(sets):
        x = torch.randn(4096, 16384).to(dtype).float()
        d = x - x[:, :1]
        d_mean = d.mean(1)
        variance = (d * d).mean(1) - d_mean * d_mean
        counts.append(int((d_mean * d_mean > 16 * variance).sum()))
    tally = sorted(collections.Counter(counts).items())
    none = counts.count(0) / sets
    name = str(dtype).removeprefix("torch.")
    print(
        f"{name}: far rows a set {tally} (count, sets); mean {sum(counts) / sets:.3f}; "
        f"sets without one {none:.3f}, so three sets without one {none**3:.3f}"
    )
