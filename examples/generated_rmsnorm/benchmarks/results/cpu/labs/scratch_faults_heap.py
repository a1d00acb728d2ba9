"""The LayerNorm CPU backward operator alone against ATen's, one thread, float32 at 16x65536, in 40
states of the process's heap (each trial keeps one more allocation of another size, and every other
trial's x is a view at an offset): a call that takes over 1.5 ms is marked SLOW. Each line also gives
the offsets in their 4 KiB pages of x, grad_out, grad_x and the weight.

    python scratch_faults_heap.py PROJECT/src
"""

import statistics
import sys
import time

import torch

sys.path.insert(0, sys.argv[1])
import example_layer_norm  # noqa: E402, F401  (registers the operator)

OPS = torch.ops.example_layer_norm
M, N = 16, 65536


def median_ms(fn, calls: int = 15) -> tuple[float, object]:
    times, result = [], None
    for _ in range(calls):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3, result


def page_offset(t: torch.Tensor) -> int:
    return t.data_ptr() % 4096


def main() -> None:
    torch.set_num_threads(1)
    w, b = 1 + 0.5 * torch.randn(N), torch.randn(N)
    kept = []
    for trial in range(40):
        if trial % 2:
            x = 2 * torch.randn(M, N) + 0.5
        else:
            x = torch.empty(M * N + trial * 16)[trial * 16 :].view(M, N).copy_(torch.randn(M, N))
        dy = torch.randn(M, N)
        kept.append(torch.empty(trial * 1000 + 1))  # another heap for the next trial
        ours, (grad_x, _, _) = median_ms(lambda x=x, dy=dy: OPS.layer_norm_backward(dy, x, w, b, 1e-5))
        _, mean, rstd = torch.ops.aten.native_layer_norm(x, (N,), w, b, 1e-5)
        eager, eager_grads = median_ms(
            lambda x=x, dy=dy, mean=mean, rstd=rstd: torch.ops.aten.native_layer_norm_backward(
                dy, x, (N,), mean, rstd, w, b, [True, True, True]
            )
        )
        print(
            f"{'SLOW' if ours > 1.5 else '    '} eager {eager:6.3f} ge {page_offset(eager_grads[0]):4d} "
            f"ours {ours:6.3f} x {page_offset(x):4d} dy {page_offset(dy):4d} gx {page_offset(grad_x):4d} "
            f"w {page_offset(w):4d}",
            flush=True,
        )


if __name__ == "__main__":
    main()
