"""ncu_lab.py PACKAGE OPERATOR DTYPE ROWS COLS: run from a rendered row norm project's folder (after its
build), under Nsight Compute: three forward+backward calls of the operator through autograd (the
first two warm up; ncu_lab.sh profiles the third's kernels with --launch-skip)."""

import importlib
import sys

import torch

sys.path[:0] = [".", "src"]  # the package, built in place


def main():
    package, name, dtype, rows, cols = sys.argv[1:6]
    op = getattr(importlib.import_module(package), name)
    dtype = getattr(torch, dtype)
    rows, cols = int(rows), int(cols)
    torch.manual_seed(0)
    x = torch.randn(rows, cols, device="cuda", dtype=dtype, requires_grad=True)
    extra = [torch.randn_like(x, requires_grad=True)] if "fused_add" in name else []
    params = [torch.randn(cols, device="cuda", dtype=dtype, requires_grad=True)]
    if "layer_norm" in name:
        params.append(torch.randn(cols, device="cuda", dtype=dtype, requires_grad=True))
    inputs = [x, *extra, *params]
    for _ in range(3):
        out = op(*inputs, 1e-5)
        out = out if isinstance(out, tuple) else (out,)
        torch.autograd.grad(out, inputs, [torch.randn_like(o) for o in out])
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
