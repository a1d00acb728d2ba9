# ruff: noqa: E501
"""Lab AU1 (issue 11): forward+backward calls of one operator for Nsight Compute to profile. Run from a
project's root: python3 au_ncu.py OP DTYPE MxN. Three forward+backward calls on the benchmark's inputs
(runner.make_buffer_sets), after one checked against the reference in float64, so that ncu's kernel
filter (-k regex:backward_kernel -s 1 -c 1) takes the first backward after the checked one."""

import sys

import torch

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

op, dtype_name, shape = sys.argv[1:4]
rows, cols = (int(d) for d in shape.split("x"))
spec = runner.load_spec(FAMILY, op)
fn = runner.bind(FAMILY, spec, spec.function)
(buffers,) = runner.make_buffer_sets(
    FAMILY, spec, (rows, cols), getattr(torch, dtype_name), torch.device("cuda"), 1
)
expected = runner.evaluate_in_float64(runner.bind(FAMILY, spec, spec.reference), buffers)
runner.check_against_reference(f"ours {op}", fn, expected, buffers, f"{dtype_name} {shape}")
del expected  # (float64 copies that ncu would save and restore for each replay of the kernel)
call = runner.forward_backward_call(fn)
for _ in range(3):
    call(buffers)
torch.cuda.synchronize()
print("profiled calls done")
