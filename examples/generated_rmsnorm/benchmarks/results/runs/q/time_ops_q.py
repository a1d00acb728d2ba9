"""Device time of an operator's forward and backward ops at the big shapes, for labs P1, P2 and Q1 to Q3
(Q1 added 8192x4095).

Usage: time_ops.py PACKAGE OPERATOR LABEL [DTYPES]  (P1 ran it before the DTYPES argument existed,
with the same default.) CUDA events around back-to-back calls, the best of three rounds; the share of
the copy rate counts the bytes the operator must move (forward 2 x numel, with the residual add 4;
forward+backward 5, with the residual add 8) against a device-to-device copy timed beside it.
Writes time_LABEL.json in the working directory.
"""

import importlib
import json
import sys

import torch

SHAPES = ((32768, 4096), (8192, 8192), (4096, 16384), (1024, 65536), (4096, 1024), (8192, 4095))


def device_us(fn, reps=40):
    for _ in range(3):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    best = float("inf")
    for _ in range(3):
        start.record()
        for _ in range(reps):
            fn()
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) / reps * 1000)
    return best


def main():
    package, name, label = sys.argv[1:4]
    names = sys.argv[4].split(",") if len(sys.argv) > 4 else ["bfloat16", "float16", "float32"]
    importlib.import_module(package)
    ops = getattr(torch.ops, package)
    forward, backward = getattr(ops, name), getattr(ops, name + "_backward")
    residual, layer = "fused_add" in name, "layer_norm" in name
    results = []
    for dtype in (getattr(torch, n) for n in names):
        for rows, cols in SHAPES:
            x = torch.randn(rows, cols, device="cuda", dtype=dtype)
            weight = torch.randn(cols, device="cuda", dtype=dtype)
            bias = (torch.randn(cols, device="cuda", dtype=dtype),) if layer else ()
            grad = torch.randn_like(x)
            args = (x, *((torch.randn_like(x),) if residual else ()), weight, *bias, 1e-5)
            if residual:
                residual_out = forward(*args)[1]
                backward_args = (grad, grad, residual_out, weight, 1e-5)
            else:
                backward_args = (grad, x, weight, *bias, 1e-5)
            y = torch.empty_like(x)
            copy = device_us(lambda y=y, x=x: y.copy_(x))
            fwd = device_us(lambda args=args: forward(*args))
            bwd = device_us(lambda args=backward_args: backward(*args))
            forward_bytes, backward_bytes = (4, 4) if residual else (2, 3)  # in copies' halves
            row = {
                "label": label,
                "dtype": names[len(results) // len(SHAPES)],
                "shape": f"{rows}x{cols}",
                "fwd_us": fwd,
                "bwd_us": bwd,
                "copy_us": copy,
                "fwd_pct": 100 * copy * forward_bytes / 2 / fwd,
                "fwdbwd_pct": 100 * copy * (forward_bytes + backward_bytes) / 2 / (fwd + bwd),
            }
            results.append(row)
            print(
                f"{label:24s} {row['dtype']:9s} {rows}x{cols:<6d} fwd {fwd:8.1f} us {row['fwd_pct']:5.1f}%"
                f"  bwd {bwd:8.1f} us  fwd+bwd {row['fwdbwd_pct']:5.1f}%  copy {copy:7.1f}",
                flush=True,
            )
    with open(f"time_{label}.json", "w") as out:
        json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
