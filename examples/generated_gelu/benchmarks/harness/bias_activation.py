"""The bias + activation family's benchmark and sanitizer workload, written once for the project.

An operator's benchmarks/bench_<operator>.py calls main("<operator>"): for every dtype and shape it
times the forward pass and the forward+backward pass (``y = f(x, b); torch.autograd.grad(y, (x, b),
g)``) of four implementations:

* ours:    the operator, the fused C++/CUDA kernels;
* eager:   its reference, the same math composed from PyTorch operators;
* compile: ``torch.compile`` of the reference, compiled once per dtype and shape;
* copy:    ``dst.copy_(x)`` of the same tensor, the bandwidth an elementwise kernel can hope for.

The operator is memory-bound, so each time is turned into bandwidth over the bytes it must move
("floor bytes"): (2 * numel + N) * elem_size for the forward (read x and bias, write y), (5 * numel +
3 * N) * elem_size for forward+backward (also read grad_out, x and bias, write grad_x and grad_bias),
N = x.size(-1). The bias terms matter only for a few very wide rows. GB/s = floor
bytes / time; "% of copy" = the time the floor bytes take at the copy rate over the time (on CUDA the
device's time alone); speed-ups = baseline time / our time, per call. Every implementation is first
checked against eager, so a broken kernel cannot post a fast number. Peak memory (CUDA only) is what
one forward+backward allocates beyond its already allocated inputs. benchmarks/harness/timing.py
says how the times are taken.

Usage (from the project root, after building the extension):
    python benchmarks/bench_<operator>.py  # default dtypes and shapes
    python benchmarks/bench_<operator>.py --quick  # a smoke test that takes seconds
    python benchmarks/bench_<operator>.py --dtypes bfloat16 --shapes 8192x8192
    python benchmarks/bench_<operator>.py --device cpu --threads 1 2 --no-compile --json cpu.json
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import torch
from torch import Tensor

from . import timing
from .timing import BufferSet, MismatchError, TimingSettings, fmt, format_shape

PACKAGE = "generated_gelu"
PROJECT_ROOT = Path(__file__).resolve().parents[2]
RESULTS = PROJECT_ROOT / "benchmarks" / "results"

DTYPES = {
    "float32": torch.float32,
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "float64": torch.float64,
}
DEFAULT_DTYPES = ["float32", "bfloat16", "float16"]
# Large shapes show the bandwidth the kernels reach, also for a few very wide rows and for N not a
# multiple of the vector width (48x100003: both); 4096x1024 and 16x1024 show the per-call overhead.
DEFAULT_SHAPES_CUDA = [
    "4x4194304",
    "32x262144",
    "48x100003",
    "32768x1023",
    "32768x1000",
    "8192x8192",
    "32768x4096",
    "4096x1024",
    "16x1024",
]
DEFAULT_SHAPES_CPU = ["4096x4096", "256x1024", "4x4194304"]
QUICK_SHAPES = ["64x256"]

IMPLEMENTATIONS = ("ours", "eager", "compile")
PASSES = ("forward", "forward+backward")
PASS_LABELS = {"forward": "fwd", "forward+backward": "fwd+bwd"}
# Bytes each pass must move: FLOOR_TRAFFIC x numel x elem_size for the tensors shaped like x, plus
# BIAS_TRAFFIC x N x elem_size for those shaped like bias (see the module docstring).
FLOOR_TRAFFIC = {"forward": 2, "forward+backward": 5}
BIAS_TRAFFIC = {"forward": 1, "forward+backward": 3}
TENSORS_PER_SET = 5  # x, grad_out, copy destination, and the kept outputs y and grad_x

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

Op = Callable[[Tensor, Tensor], Tensor]


def load_spec(op_name: str):
    """The operator's spec, from the installed package or from this checkout.

    A package built in place (``python setup.py build_ext --inplace``) but not installed is not on
    sys.path; the project's src/ is added only in that case, never in front of an installed package.
    """
    try:
        importlib.import_module(PACKAGE)
    except ModuleNotFoundError as error:
        if error.name != PACKAGE:
            raise
        sys.path.insert(0, str(PROJECT_ROOT / "src"))
        importlib.import_module(PACKAGE)
    return importlib.import_module(f"{PACKAGE}.families.bias_activation").SPECS[op_name]


# ---------------------------------------------------------------------------------------------
# What is timed
# ---------------------------------------------------------------------------------------------
def forward_call(fn: Op) -> timing.Call:
    """One forward pass (run under torch.no_grad by the caller, so no graph is recorded)."""

    def call(buffers: BufferSet) -> None:
        buffers.outputs = fn(buffers.inputs["x"], buffers.inputs["bias"])

    return call


def forward_backward_call(fn: Op) -> timing.Call:
    """One forward pass and the gradients of x and bias for a given grad_out."""

    def call(buffers: BufferSet) -> None:
        x, bias = buffers.inputs["x"], buffers.inputs["bias"]
        y = fn(x, bias)
        buffers.outputs = (y, *torch.autograd.grad(y, (x, bias), buffers.grad_out))

    return call


def make_buffer_sets(
    shape: tuple[int, ...], dtype: torch.dtype, device: torch.device, count: int
) -> list[BufferSet]:
    """Random normal inputs: zeros would let kernels skip work or hit fast paths of the math."""
    sets = []
    for _ in range(count):
        x = torch.randn(shape, dtype=dtype, device=device, requires_grad=True)
        bias = torch.randn(shape[-1], dtype=dtype, device=device, requires_grad=True)
        grad_out = torch.randn(shape, dtype=dtype, device=device)
        sets.append(BufferSet({"x": x, "bias": bias}, grad_out, x, torch.empty_like(x)))
    return sets


def evaluate(fn: Op, buffers: BufferSet) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """(y without autograd, y, grad_x, grad_bias): the forward under no_grad, then with autograd."""
    x, bias = buffers.inputs["x"], buffers.inputs["bias"]
    with torch.no_grad():
        y_no_grad = fn(x, bias)
    y = fn(x, bias)
    grad_x, grad_bias = torch.autograd.grad(y, (x, bias), buffers.grad_out)
    return y_no_grad, y.detach(), grad_x, grad_bias


def check_against_eager(name: str, fn: Op, eager: Op, buffers: BufferSet, label: str) -> None:
    """Raise MismatchError unless `fn` matches eager on these inputs, forward and backward.

    Runs both modes a benchmark times (no_grad forward, forward with autograd), so this is also
    where torch.compile compiles its two graphs.
    """
    dtype = buffers.inputs["x"].dtype
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


# ---------------------------------------------------------------------------------------------
# One configuration
# ---------------------------------------------------------------------------------------------
def benchmark_configuration(
    spec,
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
    count = timing.buffer_set_count(TENSORS_PER_SET * numel * elem_size, device)
    buffer_sets = make_buffer_sets(shape, dtype, device, count)
    cuda = device.type == "cuda"

    implementations: dict[str, Op] = {"ours": spec.function, "eager": spec.reference}
    if use_compile:
        # A fresh compile per configuration: without the reset, each new shape or dtype would add
        # a recompilation (and, after a few, dynamic-shape code) to the ones before it.
        torch._dynamo.reset()
        implementations["compile"] = torch.compile(spec.reference)

    try:
        check_against_eager(spec.op_name, spec.function, spec.reference, buffer_sets[0], label)
    except NotImplementedError as error:
        raise MismatchError(
            f"{spec.name} has no kernel for {device.type} tensors: was the extension built with CUDA? "
            f"(rebuild with FORCE_CUDA=1 to get the reason)\n{error}"
        ) from None
    if "compile" in implementations:
        try:
            compiled = implementations["compile"]
            check_against_eager("torch.compile(eager)", compiled, spec.reference, buffer_sets[0], label)
        except MismatchError:
            raise
        except Exception as error:  # a missing compiler or Triton must not abort the benchmark
            print(f"warning: torch.compile failed, skipping it from here on: {error}", file=sys.stderr)
            del implementations["compile"]
            use_compile = False

    copy_ms = timing.copy_ms_per_call(buffer_sets, device, settings)
    copy_rate_gbps = timing.gbps(timing.COPY_TRAFFIC * numel * elem_size, copy_ms)
    host_bound = copy_ms < timing.HOST_BOUND_COPY_MS

    rows = []
    for pass_name in PASSES:
        grad = pass_name == "forward+backward"
        make_call = forward_backward_call if grad else forward_call
        floor_bytes = (FLOOR_TRAFFIC[pass_name] * numel + BIAS_TRAFFIC[pass_name] * shape[-1]) * elem_size
        copy_bound_ms = floor_bytes / (copy_rate_gbps * 1e6)  # the floor bytes at the copy rate
        ms: dict[str, float | None] = dict.fromkeys(IMPLEMENTATIONS)
        on_device: dict[str, float | None] = dict.fromkeys(IMPLEMENTATIONS)
        peak_mib: dict[str, float | None] = dict.fromkeys(IMPLEMENTATIONS)
        calls = {impl_name: make_call(fn) for impl_name, fn in implementations.items()}
        ms.update(timing.measure_ms(calls, buffer_sets, device, settings, grad=grad))
        if cuda:
            for impl_name, call in calls.items():
                on_device[impl_name] = timing.device_ms(call, buffer_sets, settings, grad=grad)
                if grad:
                    peak_mib[impl_name] = timing.peak_memory_mib(call, buffer_sets[0], device)
        basis = {k: on_device[k] if cuda else ms[k] for k in IMPLEMENTATIONS}
        device_ratio = timing.ratio if cuda else lambda numerator, denominator: None
        rows.append(
            {
                "dtype": dtype_name,
                "shape": list(shape),
                "pass": pass_name,
                "threads": None if cuda else torch.get_num_threads(),
                "floor_bytes": floor_bytes,
                "ms": ms,
                "device_ms": on_device if cuda else None,
                "gbps": {k: None if v is None else timing.gbps(floor_bytes, v) for k, v in basis.items()},
                "pct_of_copy": {k: None if v is None else copy_bound_ms / v * 100 for k, v in basis.items()},
                "speedup_vs_eager": timing.ratio(ms["eager"], ms["ours"]),
                "speedup_vs_compile": timing.ratio(ms["compile"], ms["ours"]),
                "device_speedup_vs_eager": device_ratio(on_device["eager"], on_device["ours"]),
                "device_speedup_vs_compile": device_ratio(on_device["compile"], on_device["ours"]),
                "copy_ms": copy_ms,
                "copy_gbps": copy_rate_gbps,
                "copy_bound_ms": copy_bound_ms,
                "host_bound": host_bound,
                "peak_mib": peak_mib if grad and cuda else None,
                "buffer_sets": len(buffer_sets),
            }
        )
    del buffer_sets
    if cuda:
        torch.cuda.empty_cache()  # give the next configuration the whole memory
    return rows, use_compile


# ---------------------------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------------------------
def format_table(rows: list[dict[str, Any]]) -> str:
    headers = [
        "dtype", "shape", "pass", "threads", "ours us", "eager us", "compile us", "ours dev us", "copy us",
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
                "-" if row["threads"] is None else str(row["threads"]),
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
    cuda = any(row["device_ms"] is not None for row in rows)
    drop = {"threads"} if cuda else {"ours dev us", headers[-1]}  # device times, peak memory: CUDA only
    keep = [i for i, header in enumerate(headers) if header not in drop]
    return timing.render_table([headers[i] for i in keep], [[line[i] for i in keep] for line in lines])


def print_report(spec, meta: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    best_copy = max(row["copy_gbps"] for row in rows)
    print(f"\n{spec.op_name} benchmark: {spec.name}, y = {spec.activation}(x + bias)")
    print(
        f"device: {meta['device_name']} ({meta['device']}) | torch {meta['torch_version']} | "
        f"CUDA {torch.version.cuda or 'none (CPU-only torch)'} | {meta['date']}"
    )
    print(
        f"copy rate (dst.copy_(x), {timing.COPY_TRAFFIC} x bytes / time): best {best_copy:.1f} GB/s; "
        "per configuration in 'copy GB/s'"
    )
    print(
        "us: median microseconds per call; 'dev us': the device's time alone, calls replayed from a CUDA "
        "graph. GB/s and %copy: the floor\nbytes ((forward 2 x numel + N, fwd+bwd 5 x numel + 3 x N) x elem) "
        "over the device time on CUDA; 'copy us' = floor bytes at the copy rate;\n'-' where the copy itself "
        "takes under "
        f"{timing.HOST_BOUND_COPY_MS * 1e3:.0f} us (the host's launch time, not memory, sets the pace: "
        "compare the times). vs eager / vs compile: their time over ours.\n"
        "peak MiB: allocated by one fwd+bwd beyond its inputs (CUDA only).\n"
    )
    print(format_table(rows))


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------
def parse_args(op_name: str, argv: Sequence[str] | None = None) -> argparse.Namespace:
    default_json = RESULTS / f"bench_{op_name}.json"
    quick_json = RESULTS / "quick" / f"bench_{op_name}.json"  # git ignores quick/: smoke tests only
    parser = argparse.ArgumentParser(
        description=f"Benchmark {op_name} against PyTorch eager, torch.compile and a copy."
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
        type=timing.parse_shape,
        metavar="SHAPE",
        help=f"shapes like 4096x1024 (default: {' '.join(DEFAULT_SHAPES_CUDA)} on CUDA, "
        f"{' '.join(DEFAULT_SHAPES_CPU)} on the CPU, {' '.join(QUICK_SHAPES)} with --quick)",
    )
    parser.add_argument(
        "--threads", nargs="+", type=int, metavar="N", help="CPU threads, each in turn (default: torch's)"
    )
    parser.add_argument("--quick", action="store_true", help="tiny shapes and few calls: a smoke test")
    parser.add_argument("--no-compile", action="store_true", help="skip the torch.compile baseline")
    parser.add_argument(
        "--repeats",
        type=int,
        help=f"most timed calls per measurement (default {timing.NORMAL_TIMING.repeats}, "
        f"{timing.QUICK_TIMING.repeats} with --quick)",
    )
    parser.add_argument(
        "--json",
        type=Path,
        help=f"where to write the results (default {default_json.relative_to(PROJECT_ROOT)}, "
        f"or {quick_json.relative_to(PROJECT_ROOT)} with --quick)",
    )
    args = parser.parse_args(argv)
    if args.repeats is not None and args.repeats < 1:
        parser.error("--repeats must be at least 1")
    if args.threads and any(count < 1 for count in args.threads):
        parser.error("--threads must be at least 1")
    if args.json is None:
        args.json = quick_json if args.quick else default_json
    return args


def main(op_name: str, argv: Sequence[str] | None = None) -> None:
    args = parse_args(op_name, argv)
    device = timing.resolve_device(args.device)
    settings = timing.QUICK_TIMING if args.quick else timing.NORMAL_TIMING
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
        shapes = [timing.parse_shape(text) for text in defaults]
    spec = load_spec(op_name)

    use_compile = not args.no_compile
    rows: list[dict[str, Any]] = []
    thread_counts = args.threads or [torch.get_num_threads()]
    try:
        for threads in thread_counts:
            torch.set_num_threads(threads)
            for dtype_name in args.dtypes:
                for shape in shapes:
                    print(f"{dtype_name} {format_shape(shape)} ...", file=sys.stderr, flush=True)
                    config_rows, use_compile = benchmark_configuration(
                        spec, shape, DTYPES[dtype_name], device, settings, use_compile
                    )
                    rows.extend(config_rows)
    except MismatchError as error:
        raise SystemExit(f"error: {error}\nRefusing to report timings of a wrong result.") from None

    meta = {
        "device": str(device),
        "device_type": "gpu" if device.type == "cuda" else "cpu",
        "device_name": timing.device_name(device),
        "torch_version": torch.__version__,
        "cuda_version": torch.version.cuda or "cpu",
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "op": spec.name,
        "package": PACKAGE,
        "activation": spec.activation,
        "quick": args.quick,
        "compile": use_compile,
        "cpu_threads": thread_counts if device.type == "cpu" else None,
        "method": (
            "median of per-call times after warm-up (CUDA events on GPU, time.perf_counter on CPU), "
            f"implementations timed in {timing.ROUNDS} interleaved rounds; device_ms (CUDA): median of "
            f"CUDA-graph replays of whole rounds over the buffer sets, at least {timing.MIN_CALLS_PER_GRAPH} "
            "calls, divided by the calls, the kernels without the "
            "host's launch time; random normal inputs, rotated over buffer sets exceeding 3x L2 when one set "
            "fits in L2; floor bytes: forward (2 x numel + N) x elem_size, forward+backward "
            "(5 x numel + 3 x N) x elem_size, N = x.size(-1); "
            "gbps = floor bytes / time and pct_of_copy = (floor bytes / copy rate) / time x 100, from "
            "device_ms on CUDA and per-call times on the CPU; copy rate = 2 x numel x elem_size / time of "
            "dst.copy_(x) (CUDA: batches queued back to back between two events); speedup_* from per-call "
            "times, device_speedup_* from device times; host_bound: copy time under "
            f"{timing.HOST_BOUND_COPY_MS * 1e3:.0f} us (report microseconds per call, not percentages); "
            "forward+backward = y = f(x, b); torch.autograd.grad(y, (x, b), grad_out); peak_mib: "
            "max_memory_allocated during one forward+backward minus memory allocated before it; every "
            "implementation checked against eager before timing"
        ),
        "timing": {
            "warmup": settings.warmup,
            "repeats": settings.repeats,
            "min_repeats": settings.min_repeats,
            "budget_s": settings.budget_s,
        },
    }
    print_report(spec, meta, rows)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"meta": meta, "results": rows}, indent=2) + "\n")
    print(f"\nresults written to {args.json}")


# Shapes for compute-sanitizer: the vectorized path (N a multiple of 16 bytes), each narrower
# vector width, N not a multiple of the vector width (rows processed several at a time, and rows
# left over), the one-element path (N = 1, a misaligned view), rows left after the unrolled loop, a
# backward with many blocks per column strip, and a few very wide rows (the backward's few-rows
# blocks, from kFewRowsMinElements). Folded columns summed by fold_columns_kernel: (3, 70001) and
# (520, 4097) on the 512-thread blocks, (136, 16001) on the few-rows blocks.
SANITIZER_SHAPES = [
    (257, 1024),
    (33, 1000),
    (7, 998),
    (5, 257),
    (9, 1),
    (3000, 64),
    (1, 4096),
    (20, 1023),
    (3, 70001),
    (520, 4097),
    (136, 16001),
    (4, 1 << 21),
]


def sanitize(op_name: str) -> None:
    """A small workload for compute-sanitizer: every code path of the CUDA kernels, once.

    Run it with PYTORCH_NO_CUDA_MEMORY_CACHING=1 so that an out-of-bounds access is not hidden inside
    a larger cached block (benchmarks/gpu_suite.py does).
    """
    spec = load_spec(op_name)
    for dtype, bias_dtype in (
        (torch.float32, torch.float32),
        (torch.bfloat16, torch.bfloat16),
        (torch.bfloat16, torch.float32),
        (torch.float64, torch.float64),
    ):
        for rows, cols in SANITIZER_SHAPES:
            x = torch.randn(rows * cols + 1, device="cuda", dtype=dtype)
            for view in (x[:-1].view(rows, cols), x[1:].view(rows, cols)):
                bias = torch.randn(cols, device="cuda", dtype=bias_dtype, requires_grad=True)
                leaf = view.detach().requires_grad_()
                y = spec.function(leaf, bias)
                torch.autograd.grad(y, (leaf, bias), torch.randn_like(y))
    torch.cuda.synchronize()
    print("sanitizer case: done")
