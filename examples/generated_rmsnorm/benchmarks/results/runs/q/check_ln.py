"""Lab Q3: the LayerNorm forward of a build against float64 F.layer_norm (a mean far from zero too)."""

import importlib
import sys

import torch
import torch.nn.functional as F

pkg = sys.argv[1]
importlib.import_module(pkg)
op = getattr(torch.ops, pkg).layer_norm
worst = 0.0
TOLERANCES = ((torch.float64, 1e-9), (torch.float32, 1e-4), (torch.bfloat16, 4e-2), (torch.float16, 4e-3))
for dtype, tol in TOLERANCES:
    for rows, cols in ((4, 1), (3, 17), (5, 4096), (2, 65536), (64, 4095), (7, 100000), (33, 1024)):
        for offset in (0.0, 100.0):
            x = (torch.randn(rows, cols, device="cuda", dtype=torch.float64) * 3 + offset).to(dtype)
            w = torch.randn(cols, device="cuda", dtype=dtype)
            b = torch.randn(cols, device="cuda", dtype=dtype)
            y = op(x, w, b, 1e-5).double()
            ref = F.layer_norm(x.double(), (cols,), w.double(), b.double(), 1e-5)
            err = ((y - ref).abs() / (1 + ref.abs())).max().item()
            worst = max(worst, err / tol)
            if err > tol:
                print(f"FAIL {dtype} {rows}x{cols} offset {offset}: {err:.3g} > {tol}")
print(f"checked; worst error / tolerance {worst:.3f}")
