"""Lab H1: host time a call of the RMSNorm example's operator, against F.rms_norm, at a shape where the
host sets the pace (16x4096 bfloat16): the op through torch.ops, the package's function, a
forward+backward through autograd, and the profiler's CPU-side breakdown of one call."""

import time

import torch
import torch.nn.functional as F

import generated_rmsnorm  # noqa: F401  (loads the library)
from generated_rmsnorm.ops.rms_norm import rms_norm

ops = torch.ops.generated_rmsnorm
x = torch.randn(16, 4096, device="cuda", dtype=torch.bfloat16)
w = torch.randn(4096, device="cuda", dtype=torch.bfloat16)
g = torch.randn_like(x)


def per_call_us(fn, n=2000):
    for _ in range(200):
        fn()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - t) / n * 1e6)
    return best


xg, wg = x.clone().requires_grad_(), w.clone().requires_grad_()
cases = {
    "torch.ops forward": lambda: ops.rms_norm(x, w, 1e-6),
    "package function forward": lambda: rms_norm(x, w, 1e-6),
    "F.rms_norm forward": lambda: F.rms_norm(x, (4096,), w, 1e-6),
    "torch.ops backward": lambda: ops.rms_norm_backward(g, x, w, 1e-6),
    "package fwd+bwd (autograd)": lambda: torch.autograd.grad(rms_norm(xg, wg, 1e-6), (xg, wg), g),
    "F.rms_norm fwd+bwd (autograd)": lambda: torch.autograd.grad(
        F.rms_norm(xg, (4096,), wg, 1e-6), (xg, wg), g
    ),
    "empty_like (a floor)": lambda: torch.empty_like(x),
}
for name, fn in cases.items():
    print(f"{name:32s} {per_call_us(fn):7.2f} us", flush=True)

for name in ("package function forward", "torch.ops backward", "package fwd+bwd (autograd)"):
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], acc_events=True) as prof:
        for _ in range(100):
            cases[name]()
        torch.cuda.synchronize()
    print(f"\n== {name}: CPU-side, 100 calls")
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=18))
