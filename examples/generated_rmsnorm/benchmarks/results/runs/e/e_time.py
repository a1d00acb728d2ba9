# ruff: noqa: E501
"""Lab E1 (from lab B1): B_DTYPES picks the dtypes (bfloat16,float16,float32). Lab B1 (from lab Z1): device time a call (CUDA graph, the benchmark's timing.device_ms) of ours, forward
and forward+backward, on the benchmark's inputs, each checked against float64 as the benchmark checks.
Run from a project's root: python3 b_time.py OP LABEL OUT.json
Lab AT (session 43): B_PEAK=1 adds each case's peak memory of one forward+backward (the benchmark's
timing.peak_memory_mib: MiB allocated beyond the inputs), ours and eager's, as peak_mib; labs AT and
AT2 took one measurement each, from lab AT3 on the largest of three, each after a garbage collection
(in lab AT eager's figure moved between runs by one tensor, likely memory freed during the call). Lab AT3:
B_NOCHECK=1 leaves out the check against float64 (for builds timed with steps left out, whose results
are wrong); each row then says "unchecked": true. Lab AU1 (prepared in session 44): B_PEAK=1 also
records requested_peak_bytes, ours: the bytes one forward+backward asks of the caching allocator at
its peak beyond what is allocated already (requested_bytes, exact sizes, where peak_mib counts the
allocator's blocks, which may be larger), the largest of three. Lab BT (prepared in session 57): to
find why this script and the benchmark timed one kernel 11% apart (call BS, runs/bs/),
B_SETTINGS=normal times with the benchmark's settings (timing.NORMAL_TIMING: device_ms replays its
graph up to 100 times within 0.5 s, where these take 30 within 0.2 s), B_FIRST=forward discards a
forward's measurement first where these discard a forward+backward's (B_FIRST=none: nothing
discarded), and B_FIRST=bench does first what the benchmark does before it times ours on the device:
the copy's per-call and device times once, then before each pass the per-call times of ours and
eager (timing.measure_ms, interleaved rounds); each row then records them."""

import gc
import json
import os
import sys

import torch

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner, timing  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402


def largest_of_three(measure):
    """The largest of three figures of measure(), each after a garbage collection."""
    figures = []
    for _ in range(3):
        gc.collect()
        torch.cuda.synchronize()
        figures.append(measure())
    return max(figures)


def peak_mib(impl, buffers):
    """Peak memory of one forward+backward (timing.peak_memory_mib: the allocator's blocks), MiB."""
    call = runner.forward_backward_call(impl)
    return round(largest_of_three(lambda: timing.peak_memory_mib(call, buffers, device)), 2)


def requested_bytes_once(call, buffers):
    """The bytes one call requests at its peak beyond what is requested already (requested_bytes: the
    sizes asked, not the allocator's blocks), as timing.peak_memory_mib measures its blocks."""
    buffers.outputs = None
    torch.cuda.synchronize()
    baseline = torch.cuda.memory_stats()["requested_bytes.all.current"]
    torch.cuda.reset_peak_memory_stats()
    call(buffers)
    torch.cuda.synchronize()
    buffers.outputs = None
    return torch.cuda.memory_stats()["requested_bytes.all.peak"] - baseline


def requested_peak_bytes(impl, buffers):
    call = runner.forward_backward_call(impl)
    return largest_of_three(lambda: requested_bytes_once(call, buffers))


op, label, out = sys.argv[1:4]
spec = runner.load_spec(FAMILY, op)
device = torch.device("cuda")
settings = timing.TimingSettings(warmup=2, repeats=30, min_repeats=5, budget_s=0.2)
SETTINGS_NAME = os.environ.get("B_SETTINGS", "lab")
FIRST = os.environ.get("B_FIRST", "forward+backward")
if SETTINGS_NAME == "normal":
    settings = timing.NORMAL_TIMING
elif SETTINGS_NAME != "lab":
    raise SystemExit(f"B_SETTINGS: lab or normal, not {SETTINGS_NAME!r}")
if FIRST not in ("forward+backward", "forward", "none", "bench"):
    raise SystemExit(f"B_FIRST: forward+backward, forward, none or bench, not {FIRST!r}")
LAB_BT = (
    {}
    if (SETTINGS_NAME, FIRST) == ("lab", "forward+backward")
    else {"settings": SETTINGS_NAME, "first": FIRST}
)
SHAPES = [
    (1024, 65536),
    (2048, 40960),
    (4096, 16384),
    (8192, 8192),
    (32768, 4096),
    (8192, 4095),
    (4096, 1024),
]
if os.environ.get("B_SHAPES"):  # lab B2: M x N,...
    SHAPES = [tuple(int(d) for d in s.split("x")) for s in os.environ["B_SHAPES"].split(",")]
rows = []
DTYPES = [getattr(torch, d) for d in os.environ.get("B_DTYPES", "bfloat16,float16,float32").split(",")]
for dtype in DTYPES:
    for shape in SHAPES:
        name = f"{str(dtype)[6:]} {shape[0]}x{shape[1]}"
        per_set = (
            runner.TENSORS_PER_SET + 2 * (len(FAMILY.activations(spec)) - 1) + 2 * (FAMILY.outputs(spec) - 1)
        )
        count = timing.buffer_set_count(per_set * shape[0] * shape[1] * dtype.itemsize, device)
        sets = runner.make_buffer_sets(FAMILY, spec, shape, dtype, device, count)
        expected = runner.evaluate_in_float64(runner.bind(FAMILY, spec, spec.reference), sets[0])
        fn = runner.bind(FAMILY, spec, spec.function)
        unchecked = bool(os.environ.get("B_NOCHECK"))
        if not unchecked:
            runner.check_against_reference(f"ours {label}", fn, expected, sets[0], name)
        # A first measurement, discarded (lab T4: the first forward of a case ran up to 10% slower).
        if FIRST == "forward+backward":
            timing.device_ms(runner.forward_backward_call(fn), sets, settings, grad=True)
        elif FIRST == "forward":
            timing.device_ms(runner.forward_call(fn), sets, settings, grad=False)
        elif FIRST == "bench":  # runner.benchmark_configuration's steps before ours' device time
            timing.copy_ms_per_call(sets, device, settings)
            timing.device_ms(timing.copy_call, sets, settings, grad=False)
        result = dict(op=op, build=label, case=name, **({"unchecked": True} if unchecked else {}), **LAB_BT)
        for pass_name, make, grad in (
            ("forward", runner.forward_call, False),
            ("forward+backward", runner.forward_backward_call, True),
        ):
            if FIRST == "bench":
                eager = runner.bind(FAMILY, spec, spec.reference)
                timing.measure_ms({"ours": make(fn), "eager": make(eager)}, sets, device, settings, grad=grad)
            result[pass_name] = round(timing.device_ms(make(fn), sets, settings, grad=grad) * 1000, 2)
        peak = ""
        if os.environ.get("B_PEAK"):
            eager = runner.bind(FAMILY, spec, spec.reference)
            result["peak_mib"] = {"ours": peak_mib(fn, sets[0]), "eager": peak_mib(eager, sets[0])}
            result["requested_peak_bytes"] = {"ours": requested_peak_bytes(fn, sets[0])}
            peak = f"  peak MiB {result['peak_mib']['ours']:.2f} (eager {result['peak_mib']['eager']:.2f})"
        rows.append(result)
        print(
            f"{op} {label:8} {name:18} fwd {result['forward']:9.2f} us  fwd+bwd {result['forward+backward']:9.2f} us{peak}",
            flush=True,
        )
        del sets
json.dump(rows, open(out, "w"), indent=1)
