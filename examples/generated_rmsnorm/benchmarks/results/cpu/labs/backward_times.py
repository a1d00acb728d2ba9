import sys, time, torch
sys.path.insert(0, "src")
import example_layer_norm as m
torch.set_num_threads(int(sys.argv[1]))
op = torch.ops.example_layer_norm.layer_norm_backward.default
def bench(fn, reps=30):
    for _ in range(3): fn()
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); fn(); ts.append(time.perf_counter() - t)
    ts.sort(); return ts[len(ts)//2] * 1e3
out = []
for dtype in (torch.float32, torch.bfloat16):
    for rows, cols in ((16, 65536), (32, 65536), (64, 16384), (1024, 4096), (256, 1024)):
        x = torch.randn(rows, cols, dtype=dtype); w = torch.randn(cols, dtype=dtype); b = torch.randn(cols, dtype=dtype); g = torch.randn(rows, cols, dtype=dtype)
        out.append(f"{bench(lambda: op(g, x, w, b, 1e-5)):.3f}")
print(" ".join(out))
