"""LayerNorm's CPU forward against eager (F.layer_norm) at 4096 x 4096, the shape at which the
benchmark's cells move most from run to run: 40 calls of each, interleaved call by call, on one and
two threads, in float32 and float16; medians and minima, ms. Ran 2026-11-29 in the LayerNorm project of
`scaffold gpu-bundle` at 63323c0 (built in place, loops for AVX512), nothing else running; output
forward_4096.txt. Usage (in a built LayerNorm project): python3 forward_4096.py"""

import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, "src")
from example_layer_norm.ops.layer_norm import layer_norm  # noqa: E402

rows, cols = 4096, 4096
for threads in (1, 2):
    torch.set_num_threads(threads)
    for dtype in (torch.float32, torch.float16):
        x = torch.randn(rows, cols, dtype=dtype)
        w = torch.randn(cols, dtype=dtype)
        b = torch.randn(cols, dtype=dtype)
        calls = {
            "ours": lambda x=x, w=w, b=b: layer_norm(x, w, b),
            "eager": lambda x=x, w=w, b=b: F.layer_norm(x, (cols,), w, b, 1e-5),
        }
        times = {name: [] for name in calls}
        with torch.no_grad():
            for _ in range(40):
                for name, call in calls.items():
                    start = time.perf_counter()
                    call()
                    times[name].append((time.perf_counter() - start) * 1e3)
        ours, eager = statistics.median(times["ours"]), statistics.median(times["eager"])
        print(
            f"{threads} thread(s) {str(dtype)[6:]:8s} ours {ours:.2f} eager {eager:.2f} eager/ours "
            f"{eager / ours:.3f}; minima ours {min(times['ours']):.2f} eager {min(times['eager']):.2f}",
            flush=True,
        )
