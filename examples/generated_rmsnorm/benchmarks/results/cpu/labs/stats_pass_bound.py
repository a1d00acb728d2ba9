"""How much of LayerNorm's CPU backward its statistics pass takes: the median time of a forward and of
a forward+backward (torch.autograd.grad), ours and eager (F.layer_norm), interleaved call by call, at
ROWS x COLS in float32 and bfloat16, on one and two threads. stats_pass_bound.sh runs it on a build
of the template's loops and on one whose backward takes each row's statistics from its first element
alone (its `Row` over one column: the pass over the row skipped, the statistics wrong), whose float32
backward time bounds from below what any backward that reads x once less could take. (Not its
bfloat16 lines: there the later passes read the rows converted to float by the skipped pass, so that
build reads x not at all; noted after the run.)
Usage (in a built LayerNorm project): python3 stats_pass_bound.py ROWS COLS REPEATS"""

import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, "src")
from example_layer_norm.ops.layer_norm import layer_norm  # noqa: E402

rows, cols, repeats = map(int, sys.argv[1:4])


def case(dtype: torch.dtype) -> str:
    x = torch.randn(rows, cols, dtype=dtype)
    dy = torch.randn(rows, cols, dtype=dtype)
    w = (1 + 0.1 * torch.randn(cols)).to(dtype).requires_grad_()
    b = (0.1 * torch.randn(cols)).to(dtype).requires_grad_()

    def ours(t):
        return layer_norm(t, w, b)

    def eager(t):
        return F.layer_norm(t, (cols,), w, b, 1e-5)

    def both(norm):
        xx = x.detach().requires_grad_()
        return torch.autograd.grad(norm(xx), (xx, w, b), dy)

    def forward(norm):
        with torch.no_grad():
            return norm(x)

    calls = {
        "ours_f": lambda: forward(ours),
        "eager_f": lambda: forward(eager),
        "ours_fb": lambda: both(ours),
        "eager_fb": lambda: both(eager),
    }
    times = {name: [] for name in calls}
    for call in calls.values():
        call()
    for _ in range(repeats):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            times[name].append((time.perf_counter() - start) * 1e3)
    m = {name: statistics.median(t) for name, t in times.items()}
    return (
        f"forward ours {m['ours_f']:7.3f} ms eager {m['eager_f']:7.3f}; forward+backward ours "
        f"{m['ours_fb']:7.3f} eager {m['eager_fb']:7.3f} (eager/ours {m['eager_fb'] / m['ours_fb']:.3f}); "
        f"backward (difference) ours {m['ours_fb'] - m['ours_f']:7.3f} "
        f"eager {m['eager_fb'] - m['eager_f']:7.3f}"
    )


torch.manual_seed(0)
for threads in (1, 2):
    torch.set_num_threads(threads)
    for dtype in (torch.float32, torch.bfloat16):
        print(f"{threads} thread(s) {str(dtype)[6:]:8s} {case(dtype)}", flush=True)
