"""The LayerNorm CPU benchmark's smaller cells (256x1024, 16x65536), forward and forward+backward
through autograd, ours against eager (F.layer_norm), one and two threads: median of 100 calls in each
of three rounds alternating between the two, the median of the rounds, ms.

    python cells.py PROJECT/src
"""

import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, sys.argv[1])
from example_layer_norm import layer_norm  # noqa: E402


def median_ms(fn, calls: int = 100) -> float:
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    for threads in (1, 2):
        torch.set_num_threads(threads)
        for dtype in (torch.float32, torch.bfloat16, torch.float16):
            for m, n in ((256, 1024), (16, 65536)):
                x = (2 * torch.randn(m, n) + 0.5).to(dtype).requires_grad_()
                w = (1 + 0.5 * torch.randn(n)).to(dtype).requires_grad_()
                b = torch.randn(n).to(dtype).requires_grad_()
                dy = torch.randn(m, n).to(dtype)
                implementations = {
                    "ours": lambda x=x, w=w, b=b: layer_norm(x, w, b, 1e-5),
                    "eager": lambda x=x, w=w, b=b, n=n: F.layer_norm(x, (n,), w, b, 1e-5),
                }
                rounds = {(name, kind): [] for name in implementations for kind in ("fwd", "fwd+bwd")}
                for _ in range(3):
                    for name, fn in implementations.items():
                        with torch.no_grad():
                            rounds[name, "fwd"].append(median_ms(fn))
                for _ in range(3):
                    for name, fn in implementations.items():
                        step = lambda fn=fn, x=x, w=w, b=b, dy=dy: torch.autograd.grad(fn(), (x, w, b), dy)  # noqa: E731
                        rounds[name, "fwd+bwd"].append(median_ms(step))
                t = {key: statistics.median(values) for key, values in rounds.items()}
                print(
                    f"t{threads} {str(dtype)[6:]:9s} {m}x{n:<6d} "
                    + " | ".join(
                        f"{kind} {t['ours', kind]:6.3f}/{t['eager', kind]:6.3f} "
                        f"{t['eager', kind] / t['ours', kind]:4.2f}x"
                        for kind in ("fwd", "fwd+bwd")
                    ),
                    flush=True,
                )


if __name__ == "__main__":
    main()
