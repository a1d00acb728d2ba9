# ruff: noqa: E501
"""Lab BY (prepared in session 58, 2026-12-01, for a later session): which of the benchmark's steps
makes our residual-add LayerNorm's float32 forward at 4096 x 16384 faster? Lab BV: 289.6 us of
device time in the benchmark of that shape with torch.compile, 321.4 to 324.4 in every process
without it; lab BW: compiling and running torch.compile's kernels does not do it; lab BT's
`B_FIRST=bench` (the benchmark's copy timings and per-call rounds of ours and eager) does not either.
What is left: the per-call rounds with torch.compile's peer in them.
This script takes runner.benchmark_configuration's steps for the forward in order, in one process,
and after each times ours' forward on the device three times (timing.device_ms, NORMAL_TIMING, as
the benchmark) and, once, by CUDA events around 20 calls without a graph (per call, the median):
  start     the buffer set made, ours checked against float64;
  compile   torch.compile of the reference compiled and checked (as the benchmark does);
  copy      the copy's per-call and device times;
  rounds    timing.measure_ms of the forward of each implementation in ROUNDS (B_ROUNDS, a comma
            list of ours, eager, compile; the benchmark's: ours,eager,compile);
  again     nothing more.
B_STEPS picks the steps (default compile,copy,rounds,again); with B_TIMED=last ours is timed only
after the last, so that no timing of ours comes between the benchmark's steps. Each timing records
where ours' outputs lay (MiB from x's address: in the graph, each distinct address of its captured
calls; by events, the last call's): lab BV recorded them only in the slow state. The rounds record
each implementation's per-call median over all of them (the benchmark's ms). After the last step it
records the kernels of one forward of ours with their launch (torch.profiler), and with B_SWAP=1
times torch.compile's forward on the device and then ours' again.
Run from the project's root (built in place): python3 steps_by.py OP OUT.json"""

import json
import os
import statistics
import sys

import torch

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner, timing  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

op, out = sys.argv[1:3]
M, N = (int(d) for d in os.environ.get("B_SHAPE", "4096x16384").split("x"))
ROUNDS = os.environ.get("B_ROUNDS", "ours,eager,compile").split(",")
spec = runner.load_spec(FAMILY, op)
device = torch.device(os.environ.get("B_DEVICE", "cuda"))
cuda = device.type == "cuda"
settings = timing.NORMAL_TIMING if cuda else timing.QUICK_TIMING
label = f"float32 {M}x{N}"
sets = runner.make_buffer_sets(FAMILY, spec, (M, N), torch.float32, device, 1)
expected = runner.evaluate_in_float64(runner.bind(FAMILY, spec, spec.reference), sets[0])
impls = {"ours": runner.bind(FAMILY, spec, spec.function), "eager": runner.bind(FAMILY, spec, spec.reference)}
runner.check_against_reference("ours", impls["ours"], expected, sets[0], label)
ours_forward = runner.forward_call(impls["ours"])


MIB = 1 << 20
seen: list[tuple[int, ...]] = []


def recording(call):
    """`call`, recording the addresses of its outputs (buffers.outputs) after each call."""

    def wrapped(b):
        call(b)
        seen.append(tuple(t.data_ptr() for t in b.outputs))

    return wrapped


def where(calls: list[tuple[int, ...]]) -> list[float]:
    """Each distinct output address of `calls`, in MiB from x's."""
    x = sets[0].inputs["x"].data_ptr()
    return sorted({round((p - x) / MIB, 3) for call in calls for p in call})


def on_device(call) -> float | None:
    with torch.no_grad():
        ms = timing.device_ms(call, sets, settings, grad=False) if cuda else None
    return None if ms is None else round(ms * 1000, 2)


def ours_on_device() -> tuple[float | None, list[float]]:
    """Ours' forward on the device, and where its outputs lay in the graph's captured calls."""
    seen.clear()
    us = on_device(recording(ours_forward))
    return us, where(seen[-timing.MIN_CALLS_PER_GRAPH :])


def by_events() -> tuple[float, list[float]]:
    """Median us of 20 calls of ours' forward, each between two CUDA events, without a graph, and
    where the last call's outputs lay."""
    time_calls = timing.time_calls_cuda if cuda else timing.time_calls_cpu
    seen.clear()
    with torch.no_grad():
        time_calls(ours_forward, sets, 3)
        times = time_calls(recording(ours_forward), sets, 20)
    for b in sets:
        b.outputs = None
    return round(statistics.median(times) * 1000, 2), where(seen[-1:])


def step_compile() -> None:
    torch._dynamo.reset()
    impls["compile"] = runner.bind(FAMILY, spec, torch.compile(spec.reference))
    runner.check_against_reference("torch.compile(eager)", impls["compile"], expected, sets[0], label)


def step_copy() -> None:
    timing.copy_ms_per_call(sets, device, settings)
    if cuda:
        on_device(timing.copy_call)


rounds_ms: dict[str, float] = {}


def step_rounds() -> None:
    if "compile" in ROUNDS and "compile" not in impls:
        step_compile()
    calls = {name: runner.forward_call(impls[name]) for name in ROUNDS}
    measured = timing.measure_ms(calls, sets, device, settings, grad=False)
    rounds_ms.update({name: round(ms * 1000, 2) for name, ms in measured.items()})


def kernels() -> list[dict]:
    """The kernels of one forward of ours with their launch, as torch.profiler saw them."""
    if not cuda:
        return []
    from torch.profiler import ProfilerActivity, profile

    keys = ("grid", "block", "registers per thread", "shared memory", "est. achieved occupancy %")
    with torch.no_grad():
        impls["ours"](sets[0].inputs)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            impls["ours"](sets[0].inputs)
            torch.cuda.synchronize()
    path = f"/tmp/trace_by_{os.getpid()}.json"
    prof.export_chrome_trace(path)
    found = []
    for e in json.load(open(path))["traceEvents"]:
        if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
            args = e.get("args", {})
            found.append(
                {"name": e["name"][:120], "us": e.get("dur"), **{k: args[k] for k in keys if k in args}}
            )
    return found


STEPS = {"compile": step_compile, "copy": step_copy, "rounds": step_rounds, "again": lambda: None}
chosen = os.environ.get("B_STEPS", "compile,copy,rounds,again").split(",")
timed_last = os.environ.get("B_TIMED") == "last"
result = {
    "op": op,
    "shape": [M, N],
    "dtype": "float32",
    "rounds": ROUNDS,
    "timed": "last" if timed_last else "each",
    "steps": [],
}
steps = ["start", *chosen]
for name in steps:
    if name != "start":
        STEPS[name]()
    if timed_last and name != steps[-1]:
        result["steps"].append({"step": name})
        print(f"{name:8} (not timed)", flush=True)
        continue
    device_runs = [ours_on_device() for _ in range(3)]
    events_us, events_where = by_events()
    row = {
        "step": name,
        "device_us": [us for us, _ in device_runs],
        "device_outputs_mib_from_x": device_runs[-1][1],
        "events_us": events_us,
        "events_outputs_mib_from_x": events_where,
    }
    result["steps"].append(row)
    print(
        f"{name:8} device {row['device_us']}  events {events_us}  outputs (MiB from x) graph {device_runs[-1][1]} events {events_where}",
        flush=True,
    )
result["rounds_per_call_us"] = rounds_ms
print(f"rounds, per call (us): {rounds_ms}", flush=True)
result["kernels"] = kernels()
for k in result["kernels"]:
    print("         ", k, flush=True)
if os.environ.get("B_SWAP") and "compile" in impls:
    result["compile_device_us"] = on_device(runner.forward_call(impls["compile"]))
    result["ours_after_compile_device_us"] = [on_device(ours_forward) for _ in range(3)]
    print(
        f"compile's device {result['compile_device_us']}  ours then {result['ours_after_compile_device_us']}"
    )
json.dump(result, open(out, "w"), indent=1)
