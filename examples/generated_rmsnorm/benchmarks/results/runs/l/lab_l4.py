"""Lab L4: the parameter gradients' second kernel (sum_rows_kernel) reading four float32 columns a
thread (lab branch lab-m-sum-rows, .gpu/m/) against one (LAB_SUM_COLUMNS=1, the template's kernel),
in one process, on the same inputs.

Usage (in a built project of .gpu/m/): python3 lab_l4.py PACKAGE OP

For each shape and dtype: inputs drawn as the benchmark draws them (x and grad_out standard normal,
weight 1 + 0.1 N(0, 1), bias 0.1 N(0, 1), in x's dtype; three sets, rotated, as the benchmark rotates
them past L2); first whether grad_x and the parameters' gradients of one forward+backward are the
same bits with either kernel; then the median device time of one forward+backward
(torch.autograd.grad), captured in a CUDA graph (2 rounds over the sets) and replayed 20 times between
CUDA events, for each kernel in turn, three rounds (one, four, one, four, ...).

(After the run, for ruff only: `both` binds `params` as a default argument, and zip is strict; the
same behaviour. And its CUDA-graph timing moved, the same code, to runs/graph_time.py, which it
imports.)
"""

import importlib
import os
import statistics
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # runs/, for graph_time
from graph_time import graph_us  # noqa: E402

sys.path.insert(0, "src")
package, op = sys.argv[1], sys.argv[2]
function = getattr(importlib.import_module(f"{package}.ops.{op}"), op)
layer = "layer" in op
SHAPES = [(1024, 65536), (4096, 16384), (8192, 8192), (32768, 4096), (8192, 4095), (4096, 1024), (65536, 128)]


def mode(columns: str) -> None:
    os.environ["LAB_SUM_COLUMNS"] = columns  # read by sum_rows at each call (the lab branch only)


for dtype in (torch.bfloat16, torch.float32):
    for rows, cols in SHAPES:
        torch.manual_seed(rows + cols)
        sets = [
            tuple(torch.randn(rows, cols, device="cuda", dtype=dtype) for _ in range(2)) for _ in range(3)
        ]
        params = [(1 + 0.1 * torch.randn(cols, device="cuda")).to(dtype).requires_grad_()]
        if layer:
            params.append((0.1 * torch.randn(cols, device="cuda")).to(dtype).requires_grad_())

        def both(s, params=params):
            x = s[0].detach().requires_grad_()
            return torch.autograd.grad(function(x, *params), (x, *params), s[1])

        mode("1")
        one = both(sets[0])
        mode("")
        four = both(sets[0])
        same = all(torch.equal(a, b) for a, b in zip(one, four, strict=True))
        times = {"1": [], "4": []}
        for _ in range(3):
            for columns in ("1", "4"):
                mode("" if columns == "4" else "1")
                times[columns].append(graph_us(both, sets))
        mode("")
        t1, t4 = (statistics.median(times[k]) for k in ("1", "4"))
        print(
            f"{op} {str(dtype)[6:]:8s} {rows:5d}x{cols:<6d} same bits {same}; forward+backward one column "
            f"{t1:7.1f} us, four {t4:7.1f} us ({t4 / t1:.3f}); rounds one "
            + " ".join(f"{t:.1f}" for t in times["1"])
            + ", four "
            + " ".join(f"{t:.1f}" for t in times["4"]),
            flush=True,
        )
        del sets, params, one, four
        torch.cuda.empty_cache()
