"""Device time (CUDA events over graph-free back-to-back calls) of an operator's forward and
forward+backward ops at the big shapes, for one build variant. Usage: time_ops.py PKG OP LABEL."""
import importlib, json, sys, torch
pkg, opname, label = sys.argv[1:4]
importlib.import_module(pkg)
ops = getattr(torch.ops, pkg)
fwd, bwd = getattr(ops, opname), getattr(ops, opname + "_backward")
residual = "fused_add" in opname
layer = "layer_norm" in opname
out = []
def t(fn, reps=40):
    for _ in range(3): fn()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    best = 1e9
    for _ in range(3):
        s.record()
        for _ in range(reps): fn()
        e.record(); e.synchronize()
        best = min(best, s.elapsed_time(e) / reps * 1000)
    return best
for dt in (torch.bfloat16, torch.float16, torch.float32):
    for M, N in ((32768, 4096), (8192, 8192), (4096, 16384), (1024, 65536), (4096, 1024)):
        x = torch.randn(M, N, device="cuda", dtype=dt)
        w = torch.randn(N, device="cuda", dtype=dt); b = torch.randn(N, device="cuda", dtype=dt)
        g = torch.randn_like(x)
        args = (x,) + ((torch.randn_like(x),) if residual else ()) + (w,) + ((b,) if layer else ()) + (1e-5,)
        f = lambda: fwd(*args)
        if residual:
            ro = fwd(*args)[1]
            bw = lambda: bwd(g, g, ro, w, 1e-5)
        else:
            bw = lambda: bwd(g, x, w, *((b,) if layer else ()), 1e-5)
        y = torch.empty_like(x)
        copy = t(lambda: y.copy_(x))
        tf, tb = t(f), t(bw)
        out.append(dict(label=label, dtype=str(dt)[6:], shape=f"{M}x{N}", fwd_us=tf, bwd_us=tb, copy_us=copy))
        # forward bytes: plain 2 x numel, residual 4 x numel; fwd+bwd: plain 5, residual 8 (x, res, y, h | g, g_res, h, gx) 
        fb = 4 if residual else 2
        bb = 4 if residual else 3
        out[-1]["fwd_pct"] = 100 * copy * fb / 2 / tf
        out[-1]["fwdbwd_pct"] = 100 * copy * (fb + bb) / 2 / (tf + tb)
        print(f"{label:24s} {out[-1]['dtype']:9s} {M}x{N:<6d} fwd {tf:8.1f} us {out[-1]['fwd_pct']:5.1f}%  bwd {tb:8.1f} us  fwd+bwd {out[-1]['fwdbwd_pct']:5.1f}%  copy {copy:7.1f}", flush=True)
json.dump(out, open(f"time_{label}.json", "w"), indent=1)
