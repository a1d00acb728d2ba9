"""One operator call under Nsight Compute (lab Q1): PACKAGE OP DTYPE M N [backward]."""

import importlib
import sys

import torch

pkg, opname, dt = sys.argv[1], sys.argv[2], getattr(torch, sys.argv[3])
M, N = int(sys.argv[4]), int(sys.argv[5])
importlib.import_module(pkg)
ops = getattr(torch.ops, pkg)
x = torch.randn(M, N, device="cuda", dtype=dt)
w = torch.randn(N, device="cuda", dtype=dt)
bias = (torch.randn_like(w),) if "layer" in opname else ()
if len(sys.argv) > 6:
    fn, args = getattr(ops, opname + "_backward"), (torch.randn_like(x), x, w, *bias, 1e-5)
else:
    fn, args = getattr(ops, opname), (x, w, *bias, 1e-5)
for _ in range(3):
    fn(*args)
torch.cuda.synchronize()
