"""Benchmark of the fused_bias_gelu operator against PyTorch.

The operator computes y = gelu_tanh(x + bias).

For every dtype and shape it times the forward pass and the forward+backward pass
(``y = f(x, b); torch.autograd.grad(y, (x, b), g)``) of four implementations:

* ours:    ``generated_gelu.fused_bias_gelu``, the fused C++/CUDA kernels;
* eager:   ``reference_fused_bias_gelu``, the same math composed from PyTorch operators;
* compile: ``torch.compile(reference_fused_bias_gelu)``, compiled once per dtype and shape;
* copy:    ``dst.copy_(x)`` of the same tensor, the bandwidth an elementwise kernel can hope for.

Method. The operator is memory-bound, so each time is turned into bandwidth over the bytes it must
move ("floor bytes", bias and grad_bias neglected): 2 * numel * elem_size for the forward (read x,
write y), 5 * numel * elem_size for forward+backward (also read grad_out and x, write grad_x).
GB/s = floor bytes / time; "% of copy" = the time the floor bytes take at the copy rate
(2 * numel * elem_size / copy time) over the measured time; speed-ups = baseline time / our time.
On CUDA each call is timed with CUDA events after a warm-up and the median of many calls is kept;
inputs are random normal, and when one set of buffers would fit in L2 the calls rotate over enough
sets to exceed a few times the L2 size, so the timings measure DRAM, not the cache. On the CPU each
call is timed with time.perf_counter (median), without rotation: small shapes run from the CPU
caches, copy included. Every implementation is first checked against eager, so a broken kernel
cannot post a fast number. Peak memory (CUDA only) is what one forward+backward allocates beyond
its already allocated inputs.

Usage (from the project root, after building the extension):
    python benchmarks/bench_fused_bias_gelu.py  # default dtypes and shapes
    python benchmarks/bench_fused_bias_gelu.py --quick  # a smoke test that takes seconds
    python benchmarks/bench_fused_bias_gelu.py --dtypes bfloat16 --shapes 8192x8192
    python benchmarks/bench_fused_bias_gelu.py --device cpu --no-compile --json cpu.json
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import torch
from torch import Tensor

PACKAGE = "generated_gelu"
OP_NAME = "fused_bias_gelu"
QUALIFIED_OP = "generated_gelu::fused_bias_gelu"
ACTIVATION = "gelu_tanh"

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JSON = PROJECT_ROOT / "benchmarks" / "results" / f"bench_{OP_NAME}.json"
# Quick runs are smoke tests: their numbers go where git ignores them, never over real results.
QUICK_JSON = PROJECT_ROOT / "benchmarks" / "results" / "quick" / f"bench_{OP_NAME}.json"

DTYPES = {
    "float32": torch.float32,
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "float64": torch.float64,
}
DEFAULT_DTYPES = ["float32", "bfloat16", "float16"]
# Large shapes show the bandwidth the kernels reach, also for a few very wide rows and for N not a
# multiple of the vector width; 4096x1024 and 16x1024 show the per-call overhead.
DEFAULT_SHAPES_CUDA = [
    "4x4194304",
    "32x262144",
    "32768x1023",
    "32768x1000",
    "8192x8192",
    "32768x4096",
    "4096x1024",
    "16x1024",
]
DEFAULT_SHAPES_CPU = ["256x1024", "64x4096"]
QUICK_SHAPES = ["64x256"]

IMPLEMENTATIONS = ("ours", "eager", "compile")
PASSES = ("forward", "forward+backward")
PASS_LABELS = {"forward": "fwd", "forward+backward": "fwd+bwd"}
# Bytes each pass must move, in units of numel * elem_size (see the module docstring).
FLOOR_TRAFFIC = {"forward": 2, "forward+backward": 5}
COPY_TRAFFIC = 2  # dst.copy_(x) reads x and writes dst
# Where the copy itself takes less than this, a call's time is mostly the host launching it: such
# shapes are reported in microseconds per call, not as a percentage of a copy that is host-bound too.
HOST_BOUND_COPY_MS = 0.02

# (rtol, atol) of y and grad_x against eager. Loose on purpose: eager rounds x + bias to the dtype
# before the activation, ours does not, so half-precision results differ by about one rounding.
# The check is there to catch wrong kernels, not to grade accuracy (the tests do that).
TOLERANCES = {
    torch.float64: (1e-7, 1e-7),
    torch.float32: (1e-4, 1e-4),
    torch.float16: (1e-2, 1e-2),
    torch.bfloat16: (5e-2, 5e-2),
}
# grad_bias sums one term per row, so its elementwise error grows with the row count while a
# wrong result (zeros, missing rows) is off by ~100%: compare ||actual - expected|| / ||expected||.
GRAD_BIAS_RELATIVE_TOLERANCE = {
    torch.float64: 1e-7,
    torch.float32: 1e-4,
    torch.float16: 1e-2,
    torch.bfloat16: 5e-2,
}

# Buffer rotation on CUDA: enough sets that together they exceed L2_MULTIPLE x the L2 size; tiny
# shapes stop at MAX_BUFFER_SETS (their time is launch overhead, not memory traffic, anyway).
L2_MULTIPLE = 3
MAX_BUFFER_SETS = 64
TENSORS_PER_SET = 5  # x, grad_out, copy destination, and the kept outputs y and grad_x
FALLBACK_L2_BYTES = 50 * 2**20  # used if this torch does not report the L2 size

Op = Callable[[Tensor, Tensor], Tensor]


@dataclass(frozen=True)
class TimingSettings:
    """How long each measurement runs."""

    warmup: int  # untimed calls first: lazy initialization, allocator, clocks, compilation
    repeats: int  # most timed calls per measurement
    min_repeats: int  # fewest timed calls per measurement, whatever the budget
    budget_s: float  # a measurement stops adding calls at about this much time


NORMAL_TIMING = TimingSettings(warmup=10, repeats=100, min_repeats=10, budget_s=0.5)
QUICK_TIMING = TimingSettings(warmup=2, repeats=10, min_repeats=3, budget_s=0.05)
# The implementations of a pass are timed in turns, ROUNDS turns each, so that a slow spell of the
# machine (clocks, another process) falls on all of them alike.
ROUNDS = 5


@dataclass
class BufferSet:
    """One set of inputs and a slot for the outputs of the last call that used them."""

    x: Tensor
    bias: Tensor
    grad_out: Tensor
    dst: Tensor  # destination of the copy baseline
    # The last call's outputs stay alive until the set is used again, so the outputs rotate through
    # memory like the inputs instead of landing in one cached block that L2 may still hold.
    outputs: Any = None


class MismatchError(RuntimeError):
    """An implementation disagrees with the eager reference."""


# ---------------------------------------------------------------------------------------------
# Loading the operator
# ---------------------------------------------------------------------------------------------
def load_implementations() -> tuple[Op, Op]:
    """Return (ours, eager reference) from the installed package, or from this checkout.

    A package built in place (``python setup.py build_ext --inplace``) but not installed is not on
    sys.path; the project's src/ is added only in that case, never in front of an installed package.
    """
    try:
        package = importlib.import_module(PACKAGE)
    except ModuleNotFoundError as error:
        if error.name != PACKAGE:
            raise
        sys.path.insert(0, str(PROJECT_ROOT / "src"))
        package = importlib.import_module(PACKAGE)
    return getattr(package, OP_NAME), getattr(package, f"reference_{OP_NAME}")


# ---------------------------------------------------------------------------------------------
# What is timed
# ---------------------------------------------------------------------------------------------
Call = Callable[[BufferSet], None]


def forward_call(fn: Op) -> Call:
    """One forward pass (run under torch.no_grad by the caller, so no graph is recorded)."""

    def call(buffers: BufferSet) -> None:
        buffers.outputs = fn(buffers.x, buffers.bias)

    return call


def forward_backward_call(fn: Op) -> Call:
    """One forward pass and the gradients of x and bias for a given grad_out."""

    def call(buffers: BufferSet) -> None:
        y = fn(buffers.x, buffers.bias)
        grads = torch.autograd.grad(y, (buffers.x, buffers.bias), buffers.grad_out)
        buffers.outputs = (y, *grads)

    return call


def copy_call(buffers: BufferSet) -> None:
    """The bandwidth reference: read x, write a tensor of the same size (run under no_grad)."""
    buffers.dst.copy_(buffers.x)


# ---------------------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------------------
def time_calls_cuda(call: Call, buffer_sets: Sequence[BufferSet], count: int) -> list[float]:
    """Milliseconds of each of `count` calls, from CUDA events recorded around each call.

    All calls are queued before one synchronization, so the GPU runs them back to back; the
    events measure device time. Where a call's kernels take less time than Python needs to launch
    them (tiny shapes), the GPU waits for the launches and the time includes that overhead.
    """
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(count)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(count)]
    for i in range(count):
        buffers = buffer_sets[i % len(buffer_sets)]
        starts[i].record()
        call(buffers)
        ends[i].record()
    torch.cuda.synchronize()
    return [start.elapsed_time(end) for start, end in zip(starts, ends, strict=True)]


def time_calls_cpu(call: Call, buffer_sets: Sequence[BufferSet], count: int) -> list[float]:
    """Milliseconds of each of `count` calls, from time.perf_counter (CPU kernels are synchronous)."""
    times = []
    for i in range(count):
        buffers = buffer_sets[i % len(buffer_sets)]
        start = time.perf_counter()
        call(buffers)
        times.append((time.perf_counter() - start) * 1e3)
    return times


def measure_ms(
    calls: dict[str, Call],
    buffer_sets: Sequence[BufferSet],
    device: torch.device,
    settings: TimingSettings,
    *,
    grad: bool,
) -> dict[str, float]:
    """Median milliseconds per call of each call, after a warm-up, timed in interleaved rounds.

    Each call gets about the same share of the time budget (as many calls as fit, within the
    settings' bounds), split into ROUNDS turns that alternate between the implementations.
    """
    time_calls = time_calls_cuda if device.type == "cuda" else time_calls_cpu
    counts: dict[str, int] = {}
    times: dict[str, list[float]] = {name: [] for name in calls}
    with torch.set_grad_enabled(grad):
        for name, call in calls.items():
            warmup_times = time_calls(call, buffer_sets, max(settings.warmup, 1))
            # The first warm-up call may include one-off work; estimate the call time from the rest.
            estimate_ms = statistics.median(warmup_times[1:] or warmup_times)
            by_budget = int(settings.budget_s * 1e3 / max(estimate_ms, 1e-6))
            counts[name] = max(settings.min_repeats, min(settings.repeats, by_budget))
        for round_index in range(ROUNDS):
            for name, call in calls.items():
                share = counts[name] // ROUNDS + (round_index < counts[name] % ROUNDS)
                if share:
                    times[name] += time_calls(call, buffer_sets, share)
    for buffers in buffer_sets:
        buffers.outputs = None
    return {name: statistics.median(values) for name, values in times.items()}


def copy_ms_per_call(
    buffer_sets: Sequence[BufferSet], device: torch.device, settings: TimingSettings
) -> float:
    """Median milliseconds of one dst.copy_(x).

    On CUDA the copies are timed in batches queued back to back between two events: the host issues
    a copy faster than the device runs one of 10 us or more, so a batch measures the device. (Timed
    one by one, the host's event records slow small copies down; replayed from a CUDA graph, a large
    copy may run on the copy engines, at another rate.) On the CPU: per-call times.
    """
    if device.type != "cuda":
        return measure_ms({"copy": copy_call}, buffer_sets, device, settings, grad=False)["copy"]

    def batch(count: int) -> float:
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for i in range(count):
            copy_call(buffer_sets[i % len(buffer_sets)])
        end.record()
        torch.cuda.synchronize()
        return start.elapsed_time(end) / count

    with torch.no_grad():
        batch(max(settings.warmup, 1))
        estimate_ms = batch(10)
        by_budget = int(settings.budget_s * 1e3 / ROUNDS / estimate_ms)
        count = max(settings.min_repeats, min(settings.repeats, by_budget))
        return statistics.median(batch(count) for _ in range(ROUNDS))


def device_ms(
    call: Call, buffer_sets: Sequence[BufferSet], settings: TimingSettings, *, grad: bool
) -> float | None:
    """Median device milliseconds per call (CUDA only), without the host's launch time.

    One call per buffer set is captured in a CUDA graph, whose replays run the kernels back to back:
    where launching a call takes the host longer than running it takes the GPU (small tensors, and
    a forward+backward's autograd bookkeeping), the per-call time measures the host and this the
    kernels. None if the call cannot be captured.
    """
    graph = torch.cuda.CUDAGraph()
    try:
        with torch.set_grad_enabled(grad):
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):  # warm-up outside the capture, as CUDA graphs require
                for buffers in buffer_sets:
                    call(buffers)
            torch.cuda.current_stream().wait_stream(side)
            with torch.cuda.graph(graph):
                for buffers in buffer_sets:
                    call(buffers)

        def replay(_: BufferSet) -> None:
            graph.replay()

        estimate_ms = time_calls_cuda(replay, buffer_sets, 3)[-1]
        by_budget = int(settings.budget_s * 1e3 / max(estimate_ms, 1e-6))
        count = max(settings.min_repeats, min(settings.repeats, by_budget))
        return statistics.median(time_calls_cuda(replay, buffer_sets, count)) / len(buffer_sets)
    except Exception as error:  # e.g. a torch.compile that cannot be captured: report no device time
        print(f"warning: could not time the device alone: {type(error).__name__}: {error}", file=sys.stderr)
        return None
    finally:
        for buffers in buffer_sets:
            buffers.outputs = None


def peak_memory_mib(call: Call, buffers: BufferSet, device: torch.device) -> float:
    """MiB that one call allocates at its peak beyond what is allocated already (CUDA only)."""
    buffers.outputs = None
    torch.cuda.synchronize(device)
    baseline = torch.cuda.memory_allocated(device)
    torch.cuda.reset_peak_memory_stats(device)
    call(buffers)
    torch.cuda.synchronize(device)
    peak = torch.cuda.max_memory_allocated(device) - baseline
    buffers.outputs = None
    return peak / 2**20


# ---------------------------------------------------------------------------------------------
# Inputs, correctness, metrics
# ---------------------------------------------------------------------------------------------
def buffer_set_count(numel: int, elem_size: int, device: torch.device) -> int:
    """How many buffer sets to rotate over so that the calls do not find their data in L2."""
    if device.type != "cuda":
        return 1
    properties = torch.cuda.get_device_properties(device)
    l2_bytes = int(getattr(properties, "L2_cache_size", 0) or FALLBACK_L2_BYTES)
    set_bytes = TENSORS_PER_SET * numel * elem_size
    return max(1, min(MAX_BUFFER_SETS, math.ceil(L2_MULTIPLE * l2_bytes / set_bytes)))


def make_buffer_sets(
    shape: tuple[int, ...], dtype: torch.dtype, device: torch.device, count: int
) -> list[BufferSet]:
    """Random normal inputs: zeros would let kernels skip work or hit fast paths of the math."""
    return [
        BufferSet(
            x=torch.randn(shape, dtype=dtype, device=device, requires_grad=True),
            bias=torch.randn(shape[-1], dtype=dtype, device=device, requires_grad=True),
            grad_out=torch.randn(shape, dtype=dtype, device=device),
            dst=torch.empty(shape, dtype=dtype, device=device),
        )
        for _ in range(count)
    ]


def evaluate(fn: Op, buffers: BufferSet) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """(y without autograd, y, grad_x, grad_bias): the forward under no_grad, then with autograd."""
    with torch.no_grad():
        y_no_grad = fn(buffers.x, buffers.bias)
    y = fn(buffers.x, buffers.bias)
    grad_x, grad_bias = torch.autograd.grad(y, (buffers.x, buffers.bias), buffers.grad_out)
    return y_no_grad, y.detach(), grad_x, grad_bias


def check_against_eager(name: str, fn: Op, eager: Op, buffers: BufferSet, label: str) -> None:
    """Raise MismatchError unless `fn` matches eager on these inputs, forward and backward.

    Runs both modes a benchmark times (no_grad forward, forward with autograd), so this is also
    where torch.compile compiles its two graphs.
    """
    dtype = buffers.x.dtype
    rtol, atol = TOLERANCES[dtype]
    expected = evaluate(eager, buffers)
    actual = evaluate(fn, buffers)
    for what, a, e in zip(("forward (no_grad)", "forward", "grad_x"), actual[:3], expected[:3], strict=True):
        try:
            torch.testing.assert_close(a.float(), e.float(), rtol=rtol, atol=atol)
        except AssertionError as error:
            raise MismatchError(f"{name} does not match eager for {label}, {what}:\n{error}") from None
    grad_bias, expected_grad_bias = actual[3].double(), expected[3].double()
    relative = (grad_bias - expected_grad_bias).norm() / expected_grad_bias.norm().clamp_min(1e-30)
    if not relative <= GRAD_BIAS_RELATIVE_TOLERANCE[dtype]:  # also catches NaN
        raise MismatchError(
            f"{name} does not match eager for {label}, grad_bias: relative error {relative:.3g} "
            f"(tolerance {GRAD_BIAS_RELATIVE_TOLERANCE[dtype]:g})"
        )


def gbps(num_bytes: int, ms: float) -> float:
    """Bytes per millisecond as GB/s (1 GB = 1e9 bytes)."""
    return num_bytes / ms / 1e6


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    return None if numerator is None or denominator is None else numerator / denominator


# ---------------------------------------------------------------------------------------------
# One configuration
# ---------------------------------------------------------------------------------------------
def benchmark_configuration(
    ours: Op,
    eager: Op,
    shape: tuple[int, ...],
    dtype: torch.dtype,
    device: torch.device,
    settings: TimingSettings,
    use_compile: bool,
) -> tuple[list[dict[str, Any]], bool]:
    """Benchmark one dtype and shape; returns its result rows and whether torch.compile worked."""
    dtype_name = str(dtype).removeprefix("torch.")
    label = f"{dtype_name} {format_shape(shape)}"
    numel = math.prod(shape)
    elem_size = torch.empty((), dtype=dtype).element_size()
    buffer_sets = make_buffer_sets(shape, dtype, device, buffer_set_count(numel, elem_size, device))

    implementations: dict[str, Op] = {"ours": ours, "eager": eager}
    if use_compile:
        # A fresh compile per configuration: without the reset, each new shape or dtype would add
        # a recompilation (and, after a few, dynamic-shape code) to the ones before it.
        torch._dynamo.reset()
        implementations["compile"] = torch.compile(eager)

    try:
        check_against_eager(OP_NAME, ours, eager, buffer_sets[0], label)
    except NotImplementedError as error:
        raise MismatchError(
            f"{QUALIFIED_OP} has no kernel for {device.type} tensors: was the extension built with CUDA? "
            f"(rebuild with FORCE_CUDA=1 to get the reason)\n{error}"
        ) from None
    if "compile" in implementations:
        try:
            compiled = implementations["compile"]
            check_against_eager("torch.compile(eager)", compiled, eager, buffer_sets[0], label)
        except MismatchError:
            raise
        except Exception as error:  # a missing compiler or Triton must not abort the benchmark
            print(f"warning: torch.compile failed, skipping it from here on: {error}", file=sys.stderr)
            del implementations["compile"]
            use_compile = False

    cuda = device.type == "cuda"
    copy_ms = copy_ms_per_call(buffer_sets, device, settings)
    copy_rate_gbps = gbps(COPY_TRAFFIC * numel * elem_size, copy_ms)
    host_bound = copy_ms < HOST_BOUND_COPY_MS

    rows = []
    for pass_name in PASSES:
        grad = pass_name == "forward+backward"
        make_call = forward_backward_call if grad else forward_call
        floor_bytes = FLOOR_TRAFFIC[pass_name] * numel * elem_size
        copy_bound_ms = floor_bytes / (copy_rate_gbps * 1e6)  # the floor bytes at the copy rate
        ms: dict[str, float | None] = dict.fromkeys(IMPLEMENTATIONS)
        on_device: dict[str, float | None] = dict.fromkeys(IMPLEMENTATIONS)
        peak_mib: dict[str, float | None] = dict.fromkeys(IMPLEMENTATIONS)
        calls = {impl_name: make_call(fn) for impl_name, fn in implementations.items()}
        ms.update(measure_ms(calls, buffer_sets, device, settings, grad=grad))
        if cuda:
            for impl_name, call in calls.items():
                on_device[impl_name] = device_ms(call, buffer_sets, settings, grad=grad)
                if grad:
                    peak_mib[impl_name] = peak_memory_mib(call, buffer_sets[0], device)
        basis = {k: on_device[k] if cuda else ms[k] for k in IMPLEMENTATIONS}
        rows.append(
            {
                "dtype": dtype_name,
                "shape": list(shape),
                "pass": pass_name,
                "floor_bytes": floor_bytes,
                "ms": ms,
                "device_ms": on_device if cuda else None,
                "gbps": {k: None if v is None else gbps(floor_bytes, v) for k, v in basis.items()},
                "pct_of_copy": {k: None if v is None else copy_bound_ms / v * 100 for k, v in basis.items()},
                "speedup_vs_eager": ratio(ms["eager"], ms["ours"]),
                "speedup_vs_compile": ratio(ms["compile"], ms["ours"]),
                "device_speedup_vs_eager": ratio(on_device["eager"], on_device["ours"]) if cuda else None,
                "device_speedup_vs_compile": ratio(on_device["compile"], on_device["ours"]) if cuda else None,
                "copy_ms": copy_ms,
                "copy_gbps": copy_rate_gbps,
                "copy_bound_ms": copy_bound_ms,
                "host_bound": host_bound,
                "peak_mib": peak_mib if grad and cuda else None,
                "buffer_sets": len(buffer_sets),
            }
        )
    del buffer_sets
    if device.type == "cuda":
        torch.cuda.empty_cache()  # give the next configuration the whole memory
    return rows, use_compile


# ---------------------------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------------------------
def format_shape(shape: Sequence[int]) -> str:
    return "x".join(str(size) for size in shape)


def fmt(value: float | None, spec: str, suffix: str = "") -> str:
    return "n/a" if value is None else f"{value:{spec}}{suffix}"


def device_name(device: torch.device) -> str:
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    try:  # platform.processor() is often empty or just the architecture on Linux
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def format_table(rows: list[dict[str, Any]]) -> str:
    headers = [
        "dtype", "shape", "pass", "ours us", "eager us", "compile us", "ours dev us", "copy us",
        "ours GB/s", "copy GB/s", "ours %copy", "eager %copy", "compile %copy",
        "vs eager", "vs compile", "peak MiB ours/eager/compile",
    ]  # fmt: skip
    lines = []
    for row in rows:
        ms, pct, peak = row["ms"], row["pct_of_copy"], row["peak_mib"]
        ours_device = (row["device_ms"] or {}).get("ours")
        # Host-bound shapes: the percentages would compare launch overheads; show the times only.
        percent = "-" if row["host_bound"] else None
        lines.append(
            [
                row["dtype"],
                format_shape(row["shape"]),
                PASS_LABELS[row["pass"]],
                *(fmt(None if ms[k] is None else ms[k] * 1e3, ".1f") for k in IMPLEMENTATIONS),
                fmt(None if ours_device is None else ours_device * 1e3, ".1f"),
                fmt(row["copy_bound_ms"] * 1e3, ".1f"),
                percent or fmt(row["gbps"]["ours"], ".1f"),
                fmt(row["copy_gbps"], ".1f"),
                percent or fmt(pct["ours"], ".1f", "%"),
                percent or fmt(pct["eager"], ".1f", "%"),
                percent or fmt(pct["compile"], ".1f", "%"),
                fmt(row["speedup_vs_eager"], ".2f", "x"),
                fmt(row["speedup_vs_compile"], ".2f", "x"),
                "-" if peak is None else "/".join(fmt(peak[k], ".1f") for k in IMPLEMENTATIONS),
            ]
        )
    if all(row["peak_mib"] is None for row in rows):  # device times and peak memory: CUDA only
        keep = [i for i, header in enumerate(headers) if header not in ("ours dev us", headers[-1])]
        headers, lines = [headers[i] for i in keep], [[line[i] for i in keep] for line in lines]
    widths = [max(len(cell) for cell in column) for column in zip(headers, *lines, strict=True)]

    # Text columns left-aligned, numbers right-aligned.
    def render(cells: list[str]) -> str:
        return "  ".join(
            cell.ljust(width) if i < 3 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        )

    return "\n".join([render(headers), render(["-" * width for width in widths]), *map(render, lines)])


def print_report(meta: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    best_copy = max(row["copy_gbps"] for row in rows)
    print(f"\n{OP_NAME} benchmark: {QUALIFIED_OP}, y = {ACTIVATION}(x + bias)")
    print(
        f"device: {meta['device_name']} ({meta['device']}) | torch {meta['torch_version']} | "
        f"CUDA {torch.version.cuda or 'none (CPU-only torch)'} | {meta['date']}"
    )
    print(
        f"copy rate (dst.copy_(x), {COPY_TRAFFIC} x bytes / time): best {best_copy:.1f} GB/s; "
        "per configuration in 'copy GB/s'"
    )
    print(
        "us: median microseconds per call; 'dev us': the device's time alone, calls replayed from a CUDA "
        "graph. GB/s and %copy: the floor\nbytes (forward 2, fwd+bwd 5 x numel x elem) over the device "
        "time on CUDA; 'copy us' = floor bytes at the copy rate;\n'-' where the copy itself takes under "
        f"{HOST_BOUND_COPY_MS * 1e3:.0f} us (the host's launch time, not memory, sets the pace: compare "
        "the times). "
        "vs eager / vs compile: their time over ours.\n"
        "peak MiB: allocated by one fwd+bwd beyond its inputs (CUDA only).\n"
    )
    print(format_table(rows))


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------
def parse_shape(text: str) -> tuple[int, ...]:
    try:
        shape = tuple(int(size) for size in text.lower().split("x"))
    except ValueError:
        shape = ()
    if not shape or any(size <= 0 for size in shape):
        raise argparse.ArgumentTypeError(f"expected sizes > 0 joined by 'x', e.g. 4096x1024 (got {text!r})")
    return shape


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=f"Benchmark {QUALIFIED_OP} against PyTorch eager, torch.compile and a copy."
    )
    default_device = "cuda" if torch.cuda.is_available() else "cpu"
    parser.add_argument(
        "--device", default=default_device, help=f"cpu, cuda or cuda:N (default {default_device})"
    )
    parser.add_argument(
        "--dtypes",
        nargs="+",
        choices=sorted(DTYPES),
        default=DEFAULT_DTYPES,
        metavar="DTYPE",
        help=f"any of {', '.join(sorted(DTYPES))} (default {' '.join(DEFAULT_DTYPES)})",
    )
    parser.add_argument(
        "--shapes",
        nargs="+",
        type=parse_shape,
        metavar="SHAPE",
        help=f"shapes like 4096x1024 (default: {' '.join(DEFAULT_SHAPES_CUDA)} on CUDA, "
        f"{' '.join(DEFAULT_SHAPES_CPU)} on the CPU, {' '.join(QUICK_SHAPES)} with --quick)",
    )
    parser.add_argument("--quick", action="store_true", help="tiny shapes and few calls: a smoke test")
    parser.add_argument("--no-compile", action="store_true", help="skip the torch.compile baseline")
    parser.add_argument(
        "--repeats",
        type=int,
        help=f"most timed calls per measurement (default {NORMAL_TIMING.repeats}, "
        f"{QUICK_TIMING.repeats} with --quick)",
    )
    parser.add_argument(
        "--json",
        type=Path,
        help=f"where to write the results (default {DEFAULT_JSON.relative_to(PROJECT_ROOT)}, "
        f"or {QUICK_JSON.relative_to(PROJECT_ROOT)} with --quick)",
    )
    args = parser.parse_args(argv)
    if args.repeats is not None and args.repeats < 1:
        parser.error("--repeats must be at least 1")
    return args


def resolve_device(name: str) -> torch.device:
    device = torch.device(name)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise SystemExit(f"error: --device {name}, but torch {torch.__version__} sees no CUDA device")
        device = torch.device("cuda", torch.cuda.current_device() if device.index is None else device.index)
        torch.cuda.set_device(device)  # events, streams and memory statistics then refer to it
    elif device.type != "cpu":
        raise SystemExit(f"error: unsupported device {name!r} (use cpu or cuda)")
    return device


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    device = resolve_device(args.device)
    settings = QUICK_TIMING if args.quick else NORMAL_TIMING
    if args.repeats is not None:
        settings = TimingSettings(
            warmup=settings.warmup,
            repeats=args.repeats,
            min_repeats=min(settings.min_repeats, args.repeats),
            budget_s=settings.budget_s,
        )
    if args.shapes is not None:
        shapes = args.shapes
    else:
        if args.quick:
            defaults = QUICK_SHAPES
        elif device.type == "cuda":
            defaults = DEFAULT_SHAPES_CUDA
        else:
            defaults = DEFAULT_SHAPES_CPU
        shapes = [parse_shape(text) for text in defaults]
    ours, eager = load_implementations()

    use_compile = not args.no_compile
    rows: list[dict[str, Any]] = []
    try:
        for dtype_name in args.dtypes:
            for shape in shapes:
                print(f"{dtype_name} {format_shape(shape)} ...", file=sys.stderr, flush=True)
                config_rows, use_compile = benchmark_configuration(
                    ours, eager, shape, DTYPES[dtype_name], device, settings, use_compile
                )
                rows.extend(config_rows)
    except MismatchError as error:
        raise SystemExit(f"error: {error}\nRefusing to report timings of a wrong result.") from None

    meta = {
        "device": str(device),
        "device_type": "gpu" if device.type == "cuda" else "cpu",
        "device_name": device_name(device),
        "torch_version": torch.__version__,
        "cuda_version": torch.version.cuda or "cpu",
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "op": QUALIFIED_OP,
        "package": PACKAGE,
        "activation": ACTIVATION,
        "quick": args.quick,
        "compile": use_compile,
        "cpu_threads": torch.get_num_threads() if device.type == "cpu" else None,
        "method": (
            "median of per-call times after warm-up (CUDA events on GPU, time.perf_counter on CPU); "
            "device_ms (CUDA): median of CUDA-graph replays of one call per buffer set, divided by the "
            "calls, the kernels without the host's launch time; gbps and pct_of_copy from device_ms on "
            "CUDA, from per-call times on the CPU, against the copy rate (CUDA: batches of copies queued "
            "back to back between two events); "
            "speedup_* from per-call times, "
            "device_speedup_* from device times; "
            "random normal inputs, rotated over buffer sets exceeding 3x L2 when one set fits in L2; "
            "floor bytes: forward 2 x numel x elem_size, forward+backward 5 x numel x elem_size; "
            "gbps = floor bytes / time; copy rate = 2 x numel x elem_size / time of dst.copy_(x); "
            "pct_of_copy = (floor bytes / copy rate) / time x 100; speedup = baseline time / ours; "
            "forward+backward = y = f(x, b); torch.autograd.grad(y, (x, b), grad_out); "
            f"implementations timed in {ROUNDS} interleaved rounds; host_bound: copy time under "
            f"{HOST_BOUND_COPY_MS * 1e3:.0f} us (report microseconds per call, not percentages); "
            "peak_mib: max_memory_allocated during one forward+backward minus memory allocated before it; "
            "every implementation checked against eager before timing"
        ),
        "timing": {
            "warmup": settings.warmup,
            "repeats": settings.repeats,
            "min_repeats": settings.min_repeats,
            "budget_s": settings.budget_s,
        },
    }
    print_report(meta, rows)

    json_path = args.json or (QUICK_JSON if args.quick else DEFAULT_JSON)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps({"meta": meta, "results": rows}, indent=2) + "\n")
    print(f"\nresults written to {json_path}")


if __name__ == "__main__":
    main()
