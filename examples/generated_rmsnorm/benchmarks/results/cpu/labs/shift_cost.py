"""Lab shift_cost (session 54, 2026-12-01): what LayerNorm's CPU loops pay for summing each row about
the mean of its first vector (and again about the mean beyond two standard deviations: kCpuFarShift)
rather than about its first element (and again beyond four): two LayerNorm projects built in place
side by side, `old_ln` (rendered from 7011fc2, the first element) and `example_layer_norm` (this
session's template), forward and forward+backward, 30 calls of each interleaved call by call, on one
and two threads, at 4096 x 4096 and 256 x 1024, in float32, bfloat16, float16 and float64, on rows of
independent normal values (`random`) and on rows that trend across their width (`trend`: randn +
linspace(-3, 3), whose first vector's mean lies about 1.5 standard deviations below the row's);
medians, ms, and the new over the old. Usage (from the new project's root, with the old project's
root as the argument): python3 shift_cost.py OLD_PROJECT_ROOT"""

import statistics
import sys
import time

import torch

sys.path.insert(0, "src")
sys.path.insert(0, f"{sys.argv[1]}/src")
from example_layer_norm.ops.layer_norm import layer_norm as new  # noqa: E402
from old_ln.ops.layer_norm import layer_norm as old  # noqa: E402

for threads in (1, 2):
    torch.set_num_threads(threads)
    for rows, cols in ((4096, 4096), (256, 1024)):
        for kind in ("random", "trend"):
            for dtype in (torch.float32, torch.bfloat16, torch.float16, torch.float64):
                x = torch.randn(rows, cols) + (torch.linspace(-3, 3, cols) if kind == "trend" else 0)
                x = x.to(dtype).requires_grad_()
                w = (1 + 0.1 * torch.randn(cols, dtype=dtype)).requires_grad_()
                b = (0.1 * torch.randn(cols, dtype=dtype)).requires_grad_()
                grad = torch.randn(rows, cols, dtype=dtype)

                def forward(f, x=x, w=w, b=b):
                    with torch.no_grad():
                        f(x, w, b)

                def forward_backward(f, x=x, w=w, b=b, grad=grad):
                    torch.autograd.grad(f(x, w, b), (x, w, b), grad)

                for name, run in (("forward", forward), ("forward+backward", forward_backward)):
                    times = {"old": [], "new": []}
                    for _ in range(30):
                        for label, f in (("old", old), ("new", new)):
                            start = time.perf_counter()
                            run(f)
                            times[label].append((time.perf_counter() - start) * 1e3)
                    o, n = statistics.median(times["old"]), statistics.median(times["new"])
                    print(
                        f"{threads} thread(s) {rows}x{cols} {kind:6s} {str(dtype)[6:]:8s} {name:16s} "
                        f"old {o:8.3f} new {n:8.3f} new/old {n / o:.3f}",
                        flush=True,
                    )
