"""Lab W: the host's time a forward+backward at 16 x 4096 (bfloat16), ours against eager: wall time a
call (synchronised every call) and torch.profiler's CPU self time by operator. Run from a project's root:
python3 host_prof.py OP"""

import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

op = sys.argv[1]
spec = runner.load_spec(FAMILY, op)
dev = "cuda"
x = torch.randn(16, 4096, device=dev, dtype=torch.bfloat16, requires_grad=True)
w = torch.randn(4096, device=dev, dtype=torch.bfloat16, requires_grad=True)
b = torch.randn(4096, device=dev, dtype=torch.bfloat16, requires_grad=True)
go = torch.randn_like(x)
lay = spec.norm == "layer_norm"
ins = (x, w, b) if lay else (x, w)


def ours():
    y = spec.function(*ins)
    return torch.autograd.grad(y, ins, go)


def eager():
    y = F.layer_norm(x, (4096,), w, b, 1e-5) if lay else F.rms_norm(x, (4096,), w, 1e-6)
    return torch.autograd.grad(y, ins, go)


def ours_fwd():
    with torch.no_grad():
        return spec.function(*ins)


def eager_fwd():
    with torch.no_grad():
        return F.layer_norm(x, (4096,), w, b, 1e-5) if lay else F.rms_norm(x, (4096,), w, 1e-6)


for f in (ours, eager, ours_fwd, eager_fwd) * 2:
    for _ in range(50):
        f()
    torch.cuda.synchronize()
    n = 500
    t = time.perf_counter()
    for _ in range(n):
        f()
    torch.cuda.synchronize()
    print(f"{op} {f.__name__:10} {(time.perf_counter() - t) / n * 1e6:8.2f} us a call (queued)", flush=True)
for f in (ours, eager):
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        for _ in range(100):
            f()
        torch.cuda.synchronize()
    print(f"--- {f.__name__}")
    print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=18))
