"""backward_times.py THREADS: run from a rendered LayerNorm project's folder (after its CPU build).
The backward operator alone, median of 30 calls after 3, in ms, at the shapes of the lab in ../README.md,
float32 then bfloat16; prints one line of times."""

import sys
import time

import torch

sys.path.insert(0, "src")  # the package, built in place

import example_layer_norm  # noqa: E402, F401  (loads the library, which registers the operators)

SHAPES = ((16, 65536), (32, 65536), (64, 16384), (1024, 4096), (256, 1024))


def median_ms(fn, reps: int = 30) -> float:
    for _ in range(3):
        fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2] * 1e3


def main():
    torch.set_num_threads(int(sys.argv[1]))
    backward = torch.ops.example_layer_norm.layer_norm_backward.default
    out = []
    for dtype in (torch.float32, torch.bfloat16):
        for rows, cols in SHAPES:
            x, grad_out = (torch.randn(rows, cols, dtype=dtype) for _ in range(2))
            weight, bias = (torch.randn(cols, dtype=dtype) for _ in range(2))
            out.append(f"{median_ms(lambda: backward(grad_out, x, weight, bias, 1e-5)):.3f}")  # noqa: B023
    print(" ".join(out))


if __name__ == "__main__":
    main()
