"""far_rows_time.py PACKAGE OPERATOR: run from a rendered LayerNorm project's folder (after its build).
The cost of the backward's second look at far rows (far_row_sums): the time of a forward+backward
through autograd (torch.autograd.grad) at the benchmark's shapes, rows of randn against the same rows
with every first element set to 1000 (every row summed twice), bfloat16 and float32: CUDA events
around back-to-back calls, the best of three rounds of 20, so the host's gaps count where the host
sets the pace (4096x1024). (Calls G2 printed "device time" in the table's header for this.)
Prints a table; writes far_rows_time.json in the working directory."""

import importlib
import json
import sys
from pathlib import Path

import torch

sys.path[:0] = [".", "src", str(Path(__file__).resolve().parents[1])]  # the package, built in place; runs/

from time_ops import device_us  # noqa: E402

SHAPES = ((32768, 4096), (8192, 8192), (4096, 16384), (1024, 65536), (4096, 1024))


def main():
    package, name = sys.argv[1:3]
    op = getattr(importlib.import_module(package), name)
    residual = "fused_add" in name
    rows_out = []
    print(f"{name}: forward+backward through autograd, us a call (every row far / normal rows)")
    for dtype in (torch.bfloat16, torch.float32):
        for rows, cols in SHAPES:
            torch.manual_seed(0)
            x = torch.randn(rows, cols, device="cuda", dtype=dtype)
            far = x.clone()
            far[:, 0] = 1000
            extra = [torch.randn_like(x)] if residual else []
            weight = torch.randn(cols, device="cuda", dtype=dtype, requires_grad=True)
            bias = torch.randn(cols, device="cuda", dtype=dtype, requires_grad=True)
            grads = [torch.randn_like(x)] * (2 if residual else 1)
            times = {}
            for label, data in (("normal", x), ("far", far)):
                data = data.requires_grad_(True)
                inputs = [data, *[e.requires_grad_(True) for e in extra], weight, bias]

                def step(inputs=inputs, grads=grads):
                    out = op(*inputs, 1e-5)
                    out = out if isinstance(out, tuple) else (out,)
                    torch.autograd.grad(out, inputs, grads[: len(out)])

                times[label] = device_us(step, reps=20)
            row = {
                "dtype": str(dtype)[6:],
                "shape": f"{rows}x{cols}",
                **times,
                "ratio": times["far"] / times["normal"],
            }
            rows_out.append(row)
            print(
                f"{row['dtype']:9s} {row['shape']:>11s} normal {times['normal']:8.1f}"
                f" far {times['far']:8.1f} "
                f"ratio {row['ratio']:.3f}",
                flush=True,
            )
    with open("far_rows_time.json", "w") as out:
        json.dump(rows_out, out, indent=1)


if __name__ == "__main__":
    main()
