"""One forward+backward case for lab L3's Nsight Compute runs: PROJECT's operator on random inputs
drawn as the benchmark draws them (x and grad_out standard normal, the weight 1 + 0.1 N(0, 1) and the
bias 0.1 N(0, 1) in x's dtype), three forward+backward calls, synchronized, then the fourth, which
ncu profiles (lab_l3.sh skips the first nine launches of the kernels it names, the forward, the
backward and sum_rows_kernel of the first three calls, and profiles the fourth call's three).
Usage: python3 ncu_case.py PACKAGE OP DTYPE ROWS COLS
(After the run, for ruff only: the arguments' line split in two; the same behaviour.)"""

import importlib
import sys

import torch

package, op, dtype = sys.argv[1], sys.argv[2], getattr(torch, sys.argv[3])
rows, cols = map(int, sys.argv[4:6])
module = importlib.import_module(f"{package}.ops.{op}")
function = getattr(module, op)
torch.manual_seed(0)
x = torch.randn(rows, cols, device="cuda", dtype=dtype, requires_grad=True)
weight = (1 + 0.1 * torch.randn(cols, device="cuda")).to(dtype).requires_grad_()
params = [weight]
if "layer" in op:
    params.append((0.1 * torch.randn(cols, device="cuda")).to(dtype).requires_grad_())
grad_out = torch.randn(rows, cols, device="cuda", dtype=dtype)
for _ in range(4):
    y = function(x, *params)
    y.backward(grad_out)
    torch.cuda.synchronize()
print("ok", op, dtype, rows, cols)
