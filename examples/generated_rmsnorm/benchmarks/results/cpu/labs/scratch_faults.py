"""The LayerNorm CPU backward operator alone against ATen's (with the statistics its forward saved), one
thread, float32 at 16x65536, for x and grad_out placed at offsets in their 4 KiB pages (the forward
too): whether a call's time depends on where its tensors, and so the operator's own allocations, lie.

    python scratch_faults.py PROJECT/src [THREADS] [DTYPE] [MxN]

PROJECT: a built LayerNorm project of `scaffold gpu-bundle` (package example_layer_norm). Median of 30
calls, ms.
"""

import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, sys.argv[1])
import example_layer_norm  # noqa: E402, F401  (registers the operator)

OPS = torch.ops.example_layer_norm
torch.set_num_threads(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
DTYPE = getattr(torch, sys.argv[3]) if len(sys.argv) > 3 else torch.float32
M, N = (int(v) for v in (sys.argv[4] if len(sys.argv) > 4 else "16x65536").split("x"))
ELEMENT = torch.tensor([], dtype=DTYPE).element_size()


def at_offset(offset: int) -> torch.Tensor:
    """A fresh M x N tensor of random values whose data starts `offset` bytes into a 4 KiB page."""
    base = torch.empty(M * N + 4096, dtype=DTYPE)
    shift = ((-base.data_ptr()) % 4096 + offset) // ELEMENT
    return base[shift : shift + M * N].view(M, N).copy_(2 * torch.randn(M, N) + 0.5)


def median_ms(fn, calls: int = 30) -> float:
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    w = (1 + 0.5 * torch.randn(N)).to(DTYPE)
    b = torch.randn(N).to(DTYPE)
    for x_offset in [0, 64, 1024, 2048, 4032]:
        for dy_offset in [0, 1024, 2048, 3072]:
            x, dy = at_offset(x_offset), at_offset(dy_offset)
            _, mean, rstd = torch.ops.aten.native_layer_norm(x, (N,), w, b, 1e-5)
            forward = median_ms(lambda x=x: OPS.layer_norm(x, w, b, 1e-5))
            eager_forward = median_ms(lambda x=x: F.layer_norm(x, (N,), w, b, 1e-5))
            backward = median_ms(lambda x=x, dy=dy: OPS.layer_norm_backward(dy, x, w, b, 1e-5))
            eager_backward = median_ms(
                lambda x=x, dy=dy, mean=mean, rstd=rstd: torch.ops.aten.native_layer_norm_backward(
                    dy, x, (N,), mean, rstd, w, b, [True, True, True]
                )
            )
            print(
                f"x@{x_offset:4d} dy@{dy_offset:4d}  fwd ours {forward:.3f} eager {eager_forward:.3f} | "
                f"bwd ours {backward:.3f} eager {eager_backward:.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
