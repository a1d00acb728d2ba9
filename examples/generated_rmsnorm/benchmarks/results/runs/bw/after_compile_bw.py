# ruff: noqa: E501
"""Lab BW (session 58, 2026-12-01): what in a torch.compile makes our forward faster afterwards?
Lab BV had the residual-add LayerNorm's float32 forward at 4096 x 16384 at 321.7 to 323.7 us of
device time in every process without torch.compile, wherever its tensors lay, and at 289.6 us in a
benchmark of that shape alone with torch.compile (compiled, and checked, before ours is timed).
This script times that forward (the benchmark's timing.device_ms, NORMAL_TIMING) on the benchmark's
inputs after each step in turn, and records the kernels of one forward with their launch
(torch.profiler: grid, block, registers, shared memory, occupancy) after each:
  start     nothing done;
  import    torch._inductor and triton imported;
  triton    a Triton kernel compiled and run (torch.compile of x * 2 on a small CUDA tensor);
  compile   torch.compile of the reference at this shape, run as the benchmark checks it
            (runner.check_against_reference: its no_grad forward and its forward with autograd);
  again     nothing more (is the state kept?).
With STEPS=compile only that step is taken after start.
Run from the project's root (built in place): python3 after_compile_bw.py OP OUT.json"""

import json
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner, timing  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

op, out = sys.argv[1:3]
M, N = 4096, 16384
spec = runner.load_spec(FAMILY, op)
device = torch.device("cuda")
sets = runner.make_buffer_sets(FAMILY, spec, (M, N), torch.float32, device, 1)
expected = runner.evaluate_in_float64(runner.bind(FAMILY, spec, spec.reference), sets[0])
ours = runner.bind(FAMILY, spec, spec.function)
runner.check_against_reference("ours", ours, expected, sets[0], "float32 4096x16384")
LAUNCH_KEYS = (
    "grid",
    "block",
    "registers per thread",
    "shared memory",
    "blocks per SM",
    "warps per SM",
    "est. achieved occupancy %",
)


def timed() -> float:
    with torch.no_grad():
        return timing.device_ms(runner.forward_call(ours), sets, timing.NORMAL_TIMING, grad=False) * 1000


def kernels() -> list[dict]:
    """The kernels of one no_grad forward of ours, each with its launch as the profiler saw it."""
    with torch.no_grad():
        ours(sets[0].inputs)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            ours(sets[0].inputs)
            torch.cuda.synchronize()
    path = f"/tmp/trace_bw_{os.getpid()}.json"
    prof.export_chrome_trace(path)
    events = json.load(open(path))["traceEvents"]
    found = []
    for e in events:
        if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
            args = e.get("args", {})
            found.append(
                {
                    "name": e["name"][:160],
                    "us": e.get("dur"),
                    **{k: args.get(k) for k in LAUNCH_KEYS if k in args},
                }
            )
    return found


def step_import():
    import torch._inductor  # noqa: F401
    import triton  # noqa: F401


def step_triton():
    double = torch.compile(lambda t: t * 2)
    double(torch.randn(1024, device=device))
    torch.cuda.synchronize()


def step_compile():
    compiled = runner.bind(FAMILY, spec, torch.compile(spec.reference))
    runner.check_against_reference("compile", compiled, expected, sets[0], "float32 4096x16384")
    torch.cuda.synchronize()


STEPS = {"import": step_import, "triton": step_triton, "compile": step_compile, "again": lambda: None}
chosen = os.environ.get("STEPS", "import,triton,compile,again").split(",")
rows = []
for name in ["start", *chosen]:
    if name != "start":
        STEPS[name]()
    us = [round(timed(), 2) for _ in range(3)]
    launched = kernels()
    rows.append({"step": name, "forward_us": us, "kernels": launched})
    print(f"{name:8} {us}", flush=True)
    for k in launched:
        print("         ", k, flush=True)
json.dump({"op": op, "shape": [M, N], "dtype": "float32", "rows": rows}, open(out, "w"), indent=1)
