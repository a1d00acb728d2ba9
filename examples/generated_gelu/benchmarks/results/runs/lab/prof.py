# ruff: noqa: B023, E501  (a lab script: its lambdas are called inside the loop that defines them)
"""Where the device time of one autograd forward+backward goes (bf16 and fp32 32768x1000)."""

import statistics

import torch
from torch.profiler import ProfilerActivity, profile

op = torch.ops.generated_gelu.fused_bias_gelu
bwd = torch.ops.generated_gelu.fused_bias_gelu_backward


def batch(fn, n=30):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    out = []
    for _ in range(5):
        s, e = torch.cuda.Event(True), torch.cuda.Event(True)
        s.record()
        for _ in range(n):
            fn()
        e.record()
        torch.cuda.synchronize()
        out.append(s.elapsed_time(e) / n * 1e3)
    return statistics.median(out)


for dtype in (torch.bfloat16, torch.float32):
    x = torch.randn(32768, 1000, device="cuda", dtype=dtype, requires_grad=True)
    b = torch.randn(1000, device="cuda", dtype=dtype, requires_grad=True)
    g = torch.randn_like(x)
    xd, bd = x.detach(), b.detach()

    def fb():
        y = op(x, b)
        return torch.autograd.grad(y, (x, b), g)

    with torch.no_grad():
        tf = batch(lambda: op(xd, bd))
        tb = batch(lambda: bwd(g, xd, bd))
    tfb = batch(fb)
    print(
        f"{dtype}: forward {tf:.1f} us, backward op {tb:.1f} us, sum {tf + tb:.1f}; autograd fwd+bwd {tfb:.1f} us"
    )
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(5):
            fb()
        torch.cuda.synchronize()
    print(p.key_averages().table(sort_by="cuda_time_total", row_limit=12, max_name_column_width=90))
