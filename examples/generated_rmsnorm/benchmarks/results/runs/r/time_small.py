"""Lab R2: device time (CUDA graphs over buffer sets that L2 does not hold) of a row-norm project's
forward and backward ops under knob settings (environment variables the lab build reads per call),
with a correctness check of each setting against float64. (Lab R1 ran this file with back-to-back
calls timed by CUDA events in place of graph_us, which at small shapes timed the host.)

Usage: time_small.py PACKAGE OPERATOR OUT.json
"""

import importlib
import json
import os
import sys

import torch
import torch.nn.functional as F

SHAPES = [
    (4096, 1024),
    (4096, 512),
    (8192, 2048),
    (512, 1024),
    (65536, 128),
    (16, 4096),
    (32768, 4096),
    (1024, 65536),
]
CONFIGS = {
    "C0 current": dict(LAB_FWD_WARP=0, LAB_BWD_WARP=0, LAB_MIN_ROWS=1, LAB_SUM_ROWS=8),
    "C1 fwd warp": dict(LAB_FWD_WARP=1, LAB_BWD_WARP=0, LAB_MIN_ROWS=1, LAB_SUM_ROWS=8),
    "C2 bwd warp": dict(LAB_FWD_WARP=1, LAB_BWD_WARP=1, LAB_MIN_ROWS=1, LAB_SUM_ROWS=8),
    "C3 min rows 4": dict(LAB_FWD_WARP=1, LAB_BWD_WARP=0, LAB_MIN_ROWS=4, LAB_SUM_ROWS=8),
    "C4 min rows 16": dict(LAB_FWD_WARP=1, LAB_BWD_WARP=0, LAB_MIN_ROWS=16, LAB_SUM_ROWS=8),
    "C5 sum 32": dict(LAB_FWD_WARP=1, LAB_BWD_WARP=0, LAB_MIN_ROWS=1, LAB_SUM_ROWS=32),
    "C6 bwd warp+min 8+sum 32": dict(LAB_FWD_WARP=1, LAB_BWD_WARP=1, LAB_MIN_ROWS=8, LAB_SUM_ROWS=32),
    "C7 min 4+sum 32": dict(LAB_FWD_WARP=1, LAB_BWD_WARP=0, LAB_MIN_ROWS=4, LAB_SUM_ROWS=32),
}


L2_BYTES = torch.cuda.get_device_properties().L2_cache_size if torch.cuda.is_available() else 0


def graph_us(call, sets):
    """Device microseconds per call: calls over the buffer sets (rotated so that they do not stay in
    L2) captured in a CUDA graph, replayed back to back; the best of five timed replays."""
    calls = max(32, len(sets))
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for i in range(len(sets)):
            call(sets[i])
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for i in range(calls):
            call(sets[i % len(sets)])
    graph.replay()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    best = float("inf")
    for _ in range(5):
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) * 1000 / calls)
    del graph
    return best


def main():
    package, name, out = sys.argv[1:4]
    importlib.import_module(package)
    ops = getattr(torch.ops, package)
    forward, backward = getattr(ops, name), getattr(ops, name + "_backward")
    layer = "layer_norm" in name
    results, errors = [], []
    for label, knobs in CONFIGS.items():
        os.environ.update({k: str(v) for k, v in knobs.items()})
        for dtype in (torch.bfloat16, torch.float32):
            for rows, cols in SHAPES:
                x = torch.randn(rows, cols, device="cuda", dtype=dtype) * 2 + 0.5
                w = 1 + 0.5 * torch.randn(cols, device="cuda", dtype=dtype)
                b = (torch.randn(cols, device="cuda", dtype=dtype),) if layer else ()
                g = torch.randn_like(x)
                args = (x, w, *b, 1e-5)
                bargs = (g, x, w, *b, 1e-5)
                if rows * cols <= 1 << 23:  # correctness against float64
                    x64, w64 = x.double().requires_grad_(), w.double().requires_grad_()
                    b64 = [t.double().requires_grad_() for t in b]
                    ref = (
                        F.layer_norm(x64, (cols,), w64, b64[0], 1e-5)
                        if layer
                        else F.rms_norm(x64, (cols,), w64, 1e-5)
                    )
                    grads = torch.autograd.grad(ref, [x64, w64, *b64], g.double())
                    got = (
                        [forward(*args)]
                        if not isinstance(forward(*args), (tuple, list))
                        else list(forward(*args))[:1]
                    )
                    gots = list(backward(*bargs))
                    tol = 2e-2 if dtype == torch.bfloat16 else 1e-4
                    pairs = [("y", got[0], ref), *zip(["gx", "gw", "gb"], gots, grads, strict=False)]
                    for what, a, e in pairs:
                        err = ((a.double() - e).abs().max() / e.abs().max().clamp_min(1e-30)).item()
                        if err > tol:
                            errors.append(f"{label} {dtype} {rows}x{cols} {what}: {err:.2e}")
                set_bytes = 2 * x.numel() * x.element_size()
                count = max(1, min(64, -(-3 * L2_BYTES // set_bytes)))
                sets = [(x.clone(), g.clone(), torch.empty_like(x)) for _ in range(count)]
                fwd = graph_us(lambda s, w=w, b=b: forward(s[0], w, *b, 1e-5), sets)
                bwd = graph_us(lambda s, w=w, b=b: backward(s[1], s[0], w, *b, 1e-5), sets)
                copy = graph_us(lambda s: s[2].copy_(s[0]), sets)
                del sets
                row = dict(
                    config=label,
                    dtype=str(dtype).split(".")[1],
                    shape=f"{rows}x{cols}",
                    fwd_us=fwd,
                    bwd_us=bwd,
                    copy_us=copy,
                    fwd_pct=100 * copy / fwd,
                    fwdbwd_pct=100 * copy * 2.5 / (fwd + bwd),
                )
                results.append(row)
                print(
                    f"{label:26s} {row['dtype']:9s} {row['shape']:11s}"
                    f" fwd {fwd:8.2f} us {row['fwd_pct']:6.1f}%"
                    f"  bwd {bwd:8.2f} us  fwd+bwd {row['fwdbwd_pct']:6.1f}%",
                    flush=True,
                )
    print("errors:", errors or "none")
    json.dump(dict(results=results, errors=errors), open(out, "w"), indent=1)


if __name__ == "__main__":
    main()
