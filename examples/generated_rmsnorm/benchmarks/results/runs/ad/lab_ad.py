"""Labs AD and AD2 (issue 11): the CUDA backward's second look at rare rows, main's against the
branches', in one process each, in device time (CUDA-graph replays, as the benchmark's device_ms takes
it).

Usage: python3 lab_ad.py PROJECT_DIR LABEL OUT.jsonl [KINDS]. PROJECT_DIR is a built project of
`scaffold gpu-bundle` (layer_norm, rmsnorm, fused_add_layer_norm). KINDS: comma-separated (default,
as lab AD ran: tame,one_far,massive). Each cell is the forward and the forward+backward at one shape
and dtype, on inputs of one kind:
- tame: normal random x whose first column is clamped to [-2, 2], so that no row's first element
  lies far from its mean (LayerNorm's backward then never sums a row again);
- one_far: tame, with x[M // 2, 0] = 50 (one far row in the tensor, as random rows give one in
  about 16,000);
- massive: x[:, 0] = 1000 in every row (an LLM's "massive activation" in the first channel);
- far2 (lab AD2 on): x[:, :2] = 1000 in every row (two such channels: the origin, the median of the
  first three elements from branch issue11-fast-resum's second commit on, lies far from the mean).
RMSNorm takes no shift, so only tame. Each result line: label, project, kind, shape, dtype, pass,
microseconds per call (median of the replays), and grad_x's and grad_weight's largest error against
float64's at 64 x 4096 (a check that the second look gives right answers, not a test).
"""

import importlib
import inspect
import json
import statistics
import sys
from pathlib import Path

import torch

project, label, out = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
sys.path.insert(0, str(project / "src"))
package = importlib.import_module(next(p.name for p in (project / "src").iterdir() if p.is_dir()))
op_name = {
    "layer_norm": "layer_norm",
    "rmsnorm": "rms_norm",
    "fused_add_layer_norm": "fused_add_layer_norm",
    "fused_add_rms_norm": "fused_add_rms_norm",
}[project.name]
op = getattr(package, op_name)
centered = "layer" in op_name
residual = op_name.startswith("fused_add")
SHAPES = [(8192, 8192), (4096, 16384), (32768, 4096), (1024, 65536), (4096, 1024)]
DTYPES = [torch.bfloat16, torch.float16, torch.float32]
KINDS = (
    (sys.argv[4].split(",") if len(sys.argv) > 4 else ["tame", "one_far", "massive"])
    if centered
    else ["tame"]
)
CALLS = 8  # calls a graph
# Lab AD took the backward as y.backward(dy), which in a graph of several calls also adds each
# gradient into the .grad of the call before (a kernel a tensor); lab AD2 on takes torch.autograd.grad,
# as the benchmark does.
ACCUMULATE = False
REPLAYS = 30


def inputs(shape, dtype, kind, seed=0):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(shape, device="cuda", generator=g)
    x[:, 0].clamp_(-2, 2)
    if kind == "one_far":
        x[shape[0] // 2, 0] = 50
    elif kind == "massive":
        x[:, 0] = 1000
    elif kind == "far2":
        x[:, :2] = 1000
    args = {"x": x.to(dtype).requires_grad_()}
    if residual:
        args["residual"] = (0.5 * torch.randn(shape, device="cuda", generator=g)).to(dtype).requires_grad_()
        if kind != "tame":  # the normalized tensor is x + residual: keep the far column far
            args["residual"].data[:, :2] = 0
    args["weight"] = (1 + 0.1 * torch.randn(shape[1], device="cuda", generator=g)).to(dtype).requires_grad_()
    if centered:
        args["bias"] = (0.1 * torch.randn(shape[1], device="cuda", generator=g)).to(dtype).requires_grad_()
    dy = torch.randn(shape, device="cuda", generator=g).to(dtype)
    return args, dy


def call(args, dy, grad):
    out = op(*args.values())
    y = out[0] if isinstance(out, tuple) else out
    if grad and ACCUMULATE:
        y.backward(dy)
    elif grad:
        torch.autograd.grad(y, list(args.values()), dy)
    return y


def device_us(args, dy, grad):
    for t in args.values():
        t.grad = None
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.set_grad_enabled(grad), torch.cuda.stream(side):
        for _ in range(2):
            call(args, dy, grad)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.set_grad_enabled(grad), torch.cuda.graph(graph):
        for _ in range(CALLS):
            call(args, dy, grad)
    graph.replay()
    times = []
    for _ in range(REPLAYS):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / CALLS)
    del graph
    return statistics.median(times)


EPS = inspect.signature(op).parameters["eps"].default


def error(kind, dtype):
    """grad_x's and grad_weight's largest error against float64's at 64 x 4096 of this kind, over their
    largest magnitude (the norms without the residual add; None with it)."""
    if residual:
        return None, None
    args, dy = inputs((64, 4096), dtype, kind, seed=1)
    y = op(*args.values())
    grads = torch.autograd.grad(y, [args["x"], args["weight"]], dy)
    ref = {k: v.detach().double().requires_grad_() for k, v in args.items()}
    if centered:
        y = torch.nn.functional.layer_norm(ref["x"], (4096,), ref["weight"], ref["bias"], EPS)
    else:
        y = torch.nn.functional.rms_norm(ref["x"], (4096,), ref["weight"], EPS)
    expected = torch.autograd.grad(y, [ref["x"], ref["weight"]], dy.double())
    gx, gw = (
        (g.double() - e).abs().max().item() / e.abs().max().item()
        for g, e in zip(grads, expected, strict=True)
    )
    return gx, gw


with out.open("a") as f:
    for kind in KINDS:
        for dtype in DTYPES:
            errs = error(kind, dtype)
            for shape in SHAPES:
                args, dy = inputs(shape, dtype, kind)
                for grad in (False, True):
                    us = device_us(args, dy, grad)
                    row = {
                        "label": label,
                        "project": project.name,
                        "kind": kind,
                        "shape": list(shape),
                        "dtype": str(dtype).removeprefix("torch."),
                        "pass": "forward+backward" if grad else "forward",
                        "us": round(us, 2),
                        "rel_err_grad_x": errs[0],
                        "rel_err_grad_weight": errs[1],
                    }
                    f.write(json.dumps(row) + "\n")
                    print(
                        label,
                        project.name,
                        kind,
                        shape,
                        row["dtype"],
                        row["pass"],
                        f"{us:.1f} us",
                        flush=True,
                    )
                del args, dy
                torch.cuda.empty_cache()
