"""How every family's benchmark times and reports: written once for the project.

Method. On CUDA each call is timed with CUDA events after a warm-up and the median of many calls is
kept; the implementations of a pass are timed in interleaved rounds, so a slow spell of the machine
falls on all of them alike. Inputs are random normal, and when one set of buffers would fit in L2
the calls rotate over enough sets to exceed a few times the L2 size, so the timings measure DRAM,
not the cache. The device's time alone (without the host's launch time) comes from CUDA-graph
replays of at least MIN_CALLS_PER_GRAPH calls, rotating over the buffer sets, so that the gap
between two replays is spread over many calls, as the copy's batches spread theirs. On the CPU each
call is timed with time.perf_counter (median), without rotation. The copy rate comes from batches
of ``dst.copy_(src)`` queued back to back.
"""

from __future__ import annotations

import argparse
import math
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from torch import Tensor

# Where the copy itself takes less than this, a call's time is mostly the host launching it: such
# shapes are reported in microseconds per call, not as a percentage of a copy that is host-bound too.
HOST_BOUND_COPY_MS = 0.02
COPY_TRAFFIC = 2  # dst.copy_(src) reads src and writes dst
# The implementations of a pass are timed in turns, ROUNDS turns each.
ROUNDS = 5
# Buffer rotation on CUDA: enough sets that together they exceed L2_MULTIPLE x the L2 size; tiny
# shapes stop at MAX_BUFFER_SETS (their time is launch overhead, not memory traffic, anyway).
L2_MULTIPLE = 3
MAX_BUFFER_SETS = 64
FALLBACK_L2_BYTES = 50 * 2**20  # used if this torch does not report the L2 size
# Calls captured in one CUDA graph for the device time (whole rounds over the buffer sets).
MIN_CALLS_PER_GRAPH = 8


@dataclass(frozen=True)
class TimingSettings:
    """How long each measurement runs."""

    warmup: int  # untimed calls first: lazy initialization, allocator, clocks, compilation
    repeats: int  # most timed calls per measurement
    min_repeats: int  # fewest timed calls per measurement, whatever the budget
    budget_s: float  # a measurement stops adding calls at about this much time


NORMAL_TIMING = TimingSettings(warmup=10, repeats=100, min_repeats=10, budget_s=0.5)
QUICK_TIMING = TimingSettings(warmup=2, repeats=10, min_repeats=3, budget_s=0.05)


@dataclass
class BufferSet:
    """One set of inputs, and a slot for the outputs of the last call that used them."""

    inputs: dict[str, Tensor]  # the operator's arguments, by name
    grad_out: tuple[Tensor, ...]  # one for each output
    src: Tensor  # what the copy baseline reads (the largest input)
    dst: Tensor  # where it writes
    # The last call's outputs stay alive until the set is used again, so the outputs rotate through
    # memory like the inputs instead of landing in one cached block that L2 may still hold.
    outputs: Any = field(default=None)


Call = Callable[[BufferSet], None]


class MismatchError(RuntimeError):
    """An implementation disagrees with the eager reference."""


def copy_call(buffers: BufferSet) -> None:
    """The bandwidth reference: read src, write a tensor of the same size (run under no_grad)."""
    buffers.dst.copy_(buffers.src)


# ---------------------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------------------
def time_calls_cuda(call: Call, buffer_sets: Sequence[BufferSet], count: int) -> list[float]:
    """Milliseconds of each of `count` calls, from CUDA events recorded around each call.

    All calls are queued before one synchronization, so the GPU runs them back to back. Where a
    call's kernels take less time than the host needs to launch them, the time includes that.
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
    """Median milliseconds of one dst.copy_(src).

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

    Whole rounds over the buffer sets, at least MIN_CALLS_PER_GRAPH calls, are captured in a CUDA
    graph, whose replays run the kernels back to back:
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
            rounds = math.ceil(MIN_CALLS_PER_GRAPH / len(buffer_sets))
            with torch.cuda.graph(graph):
                for _ in range(rounds):
                    for buffers in buffer_sets:
                        call(buffers)

        def replay(_: BufferSet) -> None:
            graph.replay()

        estimate_ms = time_calls_cuda(replay, buffer_sets, 3)[-1]
        by_budget = int(settings.budget_s * 1e3 / max(estimate_ms, 1e-6))
        count = max(settings.min_repeats, min(settings.repeats, by_budget))
        return statistics.median(time_calls_cuda(replay, buffer_sets, count)) / (rounds * len(buffer_sets))
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


def buffer_set_count(set_bytes: int, device: torch.device) -> int:
    """How many buffer sets of set_bytes each to rotate over so that calls do not find them in L2."""
    if device.type != "cuda":
        return 1
    properties = torch.cuda.get_device_properties(device)
    l2_bytes = int(getattr(properties, "L2_cache_size", 0) or FALLBACK_L2_BYTES)
    return max(1, min(MAX_BUFFER_SETS, math.ceil(L2_MULTIPLE * l2_bytes / set_bytes)))


# ---------------------------------------------------------------------------------------------
# Metrics and reporting
# ---------------------------------------------------------------------------------------------
def gbps(num_bytes: int, ms: float) -> float:
    """Bytes per millisecond as GB/s (1 GB = 1e9 bytes)."""
    return num_bytes / ms / 1e6


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    return None if numerator is None or denominator is None else numerator / denominator


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


def render_table(headers: list[str], lines: list[list[str]], text_columns: int = 3) -> str:
    """Columns aligned: the first text_columns left, the numbers right."""
    widths = [max(len(cell) for cell in column) for column in zip(headers, *lines, strict=True)]

    def render(cells: list[str]) -> str:
        return "  ".join(
            cell.ljust(width) if i < text_columns else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        )

    return "\n".join([render(headers), render(["-" * width for width in widths]), *map(render, lines)])


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
