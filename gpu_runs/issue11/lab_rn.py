"""Lab RN4 (issue 11): device time of the row-norm kernels against eager and Liger-Kernel, and the copy.

Device time = the sum of the CUDA kernels' durations per call from torch.profiler (10 calls after 3
warm-up calls, buffers rotated past 3x L2). forward: y = f(x); forward+backward: y = f(x) and
autograd.grad(y, [x, *params], grad_out). Copy: batches of dst.copy_(x) between two events.
"""

import json
import math
import os
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANT = os.environ.get("LAB_VARIANT", "")  # rms<VARIANT>/, layer<VARIANT>/: builds of one candidate
IMPLS = os.environ.get("LAB_IMPLS", "ours,eager,liger").split(",")
for project in ("rms", "layer"):
    sys.path.insert(0, os.path.join(HERE, project + VARIANT, "src"))
try:  # a call may build one of the two
    import lnlab  # noqa: E402
except ImportError:
    lnlab = None
try:
    import rmslab  # noqa: E402
except ImportError:
    rmslab = None

try:
    from liger_kernel.transformers import LigerLayerNorm, LigerRMSNorm
except Exception as error:  # noqa: BLE001
    print("no liger:", error)
    LigerRMSNorm = LigerLayerNorm = None

SHAPES = [(32768, 4096), (8192, 8192), (4096, 16384), (1024, 65536), (4096, 1024)]
DTYPES = [getattr(torch, d) for d in os.environ.get("LAB_DTYPES", "bfloat16,float32").split(",")]
EPS = 1e-6


def kernel_ms(call, sets, calls=10):
    for i in range(3):
        call(sets[i % len(sets)])
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for i in range(calls):
            call(sets[i % len(sets)])
        torch.cuda.synchronize()
    total_us = sum(e.device_time_total for e in prof.key_averages() if e.device_type.name == "CUDA")
    return total_us / calls / 1e3


def copy_ms(sets):
    res = []
    for _ in range(5):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record()
        for i in range(40):
            s = sets[i % len(sets)]
            s["dst"].copy_(s["x"])
        b.record()
        torch.cuda.synchronize()
        res.append(a.elapsed_time(b) / 40)
    return statistics.median(res)


def impls(norm, n, dtype):
    w = (1 + 0.1 * torch.randn(n, device="cuda")).to(dtype).requires_grad_()
    b = (0.1 * torch.randn(n, device="cuda")).to(dtype).requires_grad_()
    if norm == "rms":
        ours = rmslab.rms_norm
        out = {"ours": (lambda x: ours(x, w, EPS), [w]), "eager": (lambda x: F.rms_norm(x, (n,), w, EPS), [w])}
        if LigerRMSNorm is not None:
            m = LigerRMSNorm(n, eps=EPS).to("cuda", dtype)
            out["liger"] = (m, list(m.parameters()))
    else:
        ours = lnlab.layer_norm
        out = {
            "ours": (lambda x: ours(x, w, b, EPS), [w, b]),
            "eager": (lambda x: F.layer_norm(x, (n,), w, b, EPS), [w, b]),
        }
        if LigerLayerNorm is not None:
            m = LigerLayerNorm(n, eps=EPS).to("cuda", dtype)
            out["liger"] = (m, list(m.parameters()))
    return out


def main():
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    rows = []
    for norm in os.environ.get("LAB_NORMS", "rms,layer").split(","):
        for dtype in DTYPES:
            for shape in SHAPES:
                numel = math.prod(shape)
                es = torch.empty((), dtype=dtype).element_size()
                nsets = max(1, -(-3 * l2 // (numel * es * 2)))
                sets = [
                    dict(
                        x=torch.randn(shape, device="cuda", dtype=dtype).requires_grad_(),
                        g=torch.randn(shape, device="cuda", dtype=dtype),
                        dst=torch.empty(shape, device="cuda", dtype=dtype),
                    )
                    for _ in range(nsets)
                ]
                cp = copy_ms(sets)
                line = {"norm": norm, "dtype": str(dtype)[6:], "shape": list(shape), "copy_ms": cp}
                for name, (fn, params) in impls(norm, shape[1], dtype).items():
                    if name not in IMPLS:
                        continue
                    with torch.no_grad():
                        fwd = kernel_ms(lambda s, fn=fn: fn(s["x"]), sets)

                    def fb(s, fn=fn, params=params):
                        y = fn(s["x"])
                        return torch.autograd.grad(y, [s["x"], *params], s["g"])

                    fwdbwd = kernel_ms(fb, sets)
                    line[name] = {"fwd_ms": fwd, "fwdbwd_ms": fwdbwd}
                # copy-bound fractions: forward moves 2 x numel, forward+backward 5 x numel
                parts = [f"{norm:5s} {line['dtype']:8s} {shape[0]:6d}x{shape[1]:<6d} copy {cp * 1e3:7.1f} us"]
                for name in ("ours", "eager", "liger"):
                    if name in line:
                        f, fb_ = line[name]["fwd_ms"], line[name]["fwdbwd_ms"]
                        parts.append(f"{name} fwd {f * 1e3:7.1f} ({cp / f * 100:5.1f}%) fb {fb_ * 1e3:7.1f} ({2.5 * cp / fb_ * 100:5.1f}%)")
                print(" | ".join(parts), flush=True)
                rows.append(line)
                del sets
                torch.cuda.empty_cache()
    with open(os.path.join(os.environ.get("OUT", "/tmp"), os.environ.get("LAB_JSON", "lab.json")), "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
