"""How every family's benchmark runs and reports, written once for the project.

A family's module (benchmarks/harness/<family>.py) describes its operators to this runner: the
inputs an operator takes, the bytes a pass must move, and any outside implementation worth
comparing with (a peer). An operator's benchmarks/bench_<operator>.py calls its family's main().
For every dtype and shape the runner times the forward pass and the forward+backward pass
(``y = f(x, *params); torch.autograd.grad(y, (x, *params), grad_out)``; with more inputs or outputs
shaped like x, all of them and one grad_out per output) of

* ours:    the operator, the fused C++/CUDA kernels;
* eager:   its reference, the same math composed from PyTorch operators;
* compile: ``torch.compile`` of the reference, compiled once per dtype and shape;
* the family's peers where they are installed (e.g. Liger-Kernel for row normalization);
* copy:    ``dst.copy_(x)`` of the same tensor, the bandwidth a memory-bound kernel can hope for.

The operators are memory-bound, so each time is turned into bandwidth over the bytes a pass must
move ("floor bytes"): 2 x numel (read x, write y) for the forward, 5 x numel (also read grad_out and x,
write grad_x) for forward+backward, plus the family's parameter terms (N-sized tensors: weight, bias
and their gradients), all x elem_size. An operator with more inputs and outputs shaped like x (a
residual add: x and residual in, y and residual_out out) moves what its family's activation_traffic
says instead of 2 and 5. GB/s = floor bytes / time; "% of copy" = the time the floor
bytes take at the copy rate over the time (on CUDA the device's time alone); speed-ups = baseline
time / our time, per call. Every implementation but eager is first checked against the reference
computed in float64 (eager itself rounds in the dtype, and on the CPU sums a half-precision
LayerNorm's parameter gradients in it), so a broken kernel cannot post a fast number. Peak memory
(CUDA only) is what one forward+backward allocates beyond its already allocated inputs.
benchmarks/harness/timing.py says how the times are taken.

Usage (from the project root, after building the extension):
    python benchmarks/bench_<operator>.py  # default dtypes and shapes
    python benchmarks/bench_<operator>.py --quick  # a smoke test that takes seconds
    python benchmarks/bench_<operator>.py --dtypes bfloat16 --shapes 8192x8192
    python benchmarks/bench_<operator>.py --device cpu --threads 1 2 --no-compile --json cpu.json
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from unittest import mock

import torch
from torch import Tensor

from . import timing
from .timing import BufferSet, MismatchError, TimingSettings, fmt, format_shape

PACKAGE = "generated_gelu"
PROJECT_ROOT = Path(__file__).resolve().parents[2]


def sources_digest() -> str | None:
    """build_config.source_digest() of this checkout's csrc/, as gpu_suite.json records it: which
    kernel sources a benchmark measured (those of the build it imports, where that was built from
    this checkout). None where build_config.py is not in the project folder."""
    path = PROJECT_ROOT / "build_config.py"
    if not path.is_file():
        return None
    module_spec = importlib.util.spec_from_file_location("_benchmarked_build_config", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module.source_digest()


RESULTS = PROJECT_ROOT / "benchmarks" / "results"

DTYPES = {
    "float32": torch.float32,
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
    "float64": torch.float64,
}
DEFAULT_DTYPES = ["float32", "bfloat16", "float16"]
QUICK_SHAPES = ["64x256"]

BASELINES = ("eager", "compile")  # every family's; its peers come after them
PASSES = ("forward", "forward+backward")
PASS_LABELS = {"forward": "fwd", "forward+backward": "fwd+bwd"}
# Bytes each pass must move: FLOOR_TRAFFIC x numel x elem_size for the tensors shaped like x, plus
# the family's parameter_traffic x N x elem_size for those shaped like a parameter.
FLOOR_TRAFFIC = {"forward": 2, "forward+backward": 5}
# x, grad_out, copy destination, and the kept outputs y and grad_x; twice those of x and y for an
# operator with two of each (a residual add).
TENSORS_PER_SET = 5

# (rtol, atol) of y and grad_x against the reference in float64. Loose on purpose: the check is
# there to catch wrong kernels, not to grade accuracy (the tests do that, tighter).
TOLERANCES = {
    torch.float64: (1e-7, 1e-7),
    torch.float32: (1e-4, 1e-4),
    torch.float16: (1e-2, 1e-2),
    torch.bfloat16: (5e-2, 5e-2),
}
# A parameter's gradient sums one term per row, so its elementwise error grows with the row count
# while a wrong result (zeros, missing rows) is off by ~100%: compare ||actual - expected|| / ||expected||.
PARAMETER_GRAD_RELATIVE_TOLERANCE = {
    torch.float64: 1e-7,
    torch.float32: 1e-4,
    torch.float16: 1e-2,
    torch.bfloat16: 5e-2,
}

Inputs = dict[str, Tensor]  # x first, then the parameters, by argument name
Impl = Callable[[Inputs], Tensor]


@dataclass(frozen=True)
class Family:
    """What the runner needs to know of a family; its module (harness/<name>.py) makes one."""

    name: str  # the module families.<name> of the package, whose SPECS hold its operators
    describe: Callable[[Any], str]  # an operator's formula, for the report's title
    default_shapes_cuda: Sequence[str]
    default_shapes_cpu: Sequence[str]
    # The operator's parameters for a row length N, dtype and device, requiring grad (random, never
    # zeros: zeros would let kernels skip work or hit fast paths of the math).
    make_parameters: Callable[[Any, int, torch.dtype, torch.device], Inputs]
    # N-sized tensors a pass moves (parameters read, their gradients written), per pass.
    parameter_traffic: Callable[[Any, str], int]
    # The operator's inputs shaped like x, by name (x first), and its outputs' count; the numel-sized
    # tensors a pass moves (FLOOR_TRAFFIC for one input and one output).
    activations: Callable[[Any], tuple[str, ...]] = lambda spec: ("x",)
    outputs: Callable[[Any], int] = lambda spec: 1
    activation_traffic: Callable[[Any, str], int] = lambda spec, pass_name: FLOOR_TRAFFIC[pass_name]
    extra_arguments: Callable[[Any], tuple[Any, ...]] = lambda spec: ()  # after the tensors, e.g. eps
    # Outside implementations to compare with, by name, for an operator on a device; the family
    # leaves out those that are not installed or not for that device.
    peers: Callable[[Any, torch.device], dict[str, Impl]] = lambda spec, device: {}
    meta: Callable[[Any], dict[str, Any]] = lambda spec: {}  # recorded in the JSON's meta
    # compute-sanitizer's workload: shapes, and (x dtype, parameter dtype) pairs; then, for an
    # operator, further shapes, each set under environment variables the kernels read (e.g. to take
    # another code path).
    sanitizer_shapes: Sequence[tuple[int, int]] = ()
    sanitizer_dtypes: Sequence[tuple[torch.dtype, torch.dtype]] = field(default_factory=tuple)
    sanitizer_environments: Callable[[Any], Sequence[tuple[dict[str, str], Sequence[tuple[int, int]]]]] = (
        lambda spec: ()
    )
    # Rewrites rows of the workload's random x (rows x N, in place) so that the kernels also take paths
    # that random rows seldom take (e.g. a row summed a second time).
    sanitizer_rows: Callable[[Any, Tensor], None] = lambda spec, x: None


def load_spec(family: Family, op_name: str):
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
    return importlib.import_module(f"{PACKAGE}.families.{family.name}").SPECS[op_name]


def bind(family: Family, spec, fn: Callable[..., Tensor]) -> Impl:
    """`fn` (the operator, its reference or a compiled reference) as a call on the inputs; its
    outputs as a tuple."""
    extra = family.extra_arguments(spec)
    return as_tuple(lambda inputs: fn(*inputs.values(), *extra))


def as_tuple(fn: Callable[[Inputs], Tensor | tuple[Tensor, ...]]) -> Impl:
    """A call on the inputs that returns its outputs as a tuple, one output or several."""

    def call(inputs: Inputs) -> tuple[Tensor, ...]:
        result = fn(inputs)
        return tuple(result) if isinstance(result, (tuple, list)) else (result,)

    return call


# ---------------------------------------------------------------------------------------------
# What is timed
# ---------------------------------------------------------------------------------------------
def forward_call(fn: Impl) -> timing.Call:
    """One forward pass (run under torch.no_grad by the caller, so no graph is recorded)."""

    def call(buffers: BufferSet) -> None:
        buffers.outputs = fn(buffers.inputs)

    return call


def forward_backward_call(fn: Impl) -> timing.Call:
    """One forward pass and the gradients of x and of every parameter for a given grad_out."""

    def call(buffers: BufferSet) -> None:
        y = fn(buffers.inputs)
        buffers.outputs = (*y, *torch.autograd.grad(y, tuple(buffers.inputs.values()), buffers.grad_out))

    return call


def make_buffer_sets(
    family: Family, spec, shape: tuple[int, ...], dtype: torch.dtype, device: torch.device, count: int
) -> list[BufferSet]:
    """Random normal inputs: zeros would let kernels skip work or hit fast paths of the math."""
    sets = []
    for _ in range(count):
        inputs = {
            name: torch.randn(shape, dtype=dtype, device=device, requires_grad=True)
            for name in family.activations(spec)
        }
        inputs.update(family.make_parameters(spec, shape[-1], dtype, device))
        grad_out = tuple(torch.randn(shape, dtype=dtype, device=device) for _ in range(family.outputs(spec)))
        x = inputs["x"]
        sets.append(BufferSet(inputs, grad_out, x, torch.empty_like(x)))
    return sets


def evaluate(fn: Impl, buffers: BufferSet) -> dict[str, Tensor]:
    """Each output without autograd and with it, then each input's gradient, by name."""
    with torch.no_grad():
        y_no_grad = fn(buffers.inputs)
    y = fn(buffers.inputs)
    grads = torch.autograd.grad(y, tuple(buffers.inputs.values()), buffers.grad_out)
    results = {f"output {i} (no_grad)": t for i, t in enumerate(y_no_grad)}
    results.update({f"output {i}": t.detach() for i, t in enumerate(y)})
    results.update({f"grad_{name}": grad for name, grad in zip(buffers.inputs, grads, strict=True)})
    return results


def evaluate_in_float64(reference: Impl, buffers: BufferSet) -> dict[str, Tensor]:
    """What `evaluate` gives, from the reference on the same inputs converted to float64."""
    inputs = {name: value.detach().double().requires_grad_() for name, value in buffers.inputs.items()}
    grad_out = tuple(g.double() for g in buffers.grad_out)
    return evaluate(reference, BufferSet(inputs, grad_out, buffers.src, buffers.dst))


def check_against_reference(
    name: str, fn: Impl, expected: dict[str, Tensor], buffers: BufferSet, label: str
) -> None:
    """Raise MismatchError unless `fn` matches `expected` (evaluate_in_float64 of the reference) on
    these inputs, forward and backward.

    Runs both modes a benchmark times (no_grad forward, forward with autograd), so this is also
    where torch.compile compiles its two graphs.
    """
    x = buffers.inputs["x"]
    dtype = x.dtype
    rtol, atol = TOLERANCES[dtype]
    actual = evaluate(fn, buffers)
    if actual.keys() != expected.keys():
        raise MismatchError(f"{name} gives {sorted(actual)}, the reference {sorted(expected)}, for {label}")
    for what, a in actual.items():
        e = expected[what]
        if a.shape == x.shape:  # an output, or the gradient of an input shaped like x: element by element
            try:
                torch.testing.assert_close(a.float(), e.float(), rtol=rtol, atol=atol)
            except AssertionError as error:
                raise MismatchError(
                    f"{name} does not match the reference for {label}, {what}:\n{error}"
                ) from None
        else:  # a parameter's gradient, a sum over the rows
            relative = (a.double() - e.double()).norm() / e.double().norm().clamp_min(1e-30)
            if not relative <= PARAMETER_GRAD_RELATIVE_TOLERANCE[dtype]:  # also catches NaN
                raise MismatchError(
                    f"{name} does not match the reference for {label}, {what}: relative error "
                    f"{relative:.3g} (tolerance {PARAMETER_GRAD_RELATIVE_TOLERANCE[dtype]:g})"
                )


# ---------------------------------------------------------------------------------------------
# One configuration
# ---------------------------------------------------------------------------------------------
def benchmark_configuration(
    family: Family,
    spec,
    shape: tuple[int, ...],
    dtype: torch.dtype,
    device: torch.device,
    settings: TimingSettings,
    use_compile: bool,
    use_peers: bool,
) -> tuple[list[dict[str, Any]], bool]:
    """Benchmark one dtype and shape; returns its result rows and whether torch.compile worked."""
    dtype_name = str(dtype).removeprefix("torch.")
    label = f"{dtype_name} {format_shape(shape)}"
    numel = math.prod(shape)
    elem_size = torch.empty((), dtype=dtype).element_size()
    per_set = TENSORS_PER_SET + 2 * (len(family.activations(spec)) - 1) + 2 * (family.outputs(spec) - 1)
    count = timing.buffer_set_count(per_set * numel * elem_size, device)
    buffer_sets = make_buffer_sets(family, spec, shape, dtype, device, count)
    cuda = device.type == "cuda"

    eager = bind(family, spec, spec.reference)
    implementations: dict[str, Impl] = {"ours": bind(family, spec, spec.function), "eager": eager}
    if use_compile:
        # A fresh compile per configuration: without the reset, each new shape or dtype would add
        # a recompilation (and, after a few, dynamic-shape code) to the ones before it.
        torch._dynamo.reset()
        implementations["compile"] = bind(family, spec, torch.compile(spec.reference))

    expected = evaluate_in_float64(eager, buffer_sets[0])
    try:
        check_against_reference(spec.op_name, implementations["ours"], expected, buffer_sets[0], label)
    except NotImplementedError as error:
        raise MismatchError(
            f"{spec.name} has no kernel for {device.type} tensors: was the extension built with CUDA? "
            f"(rebuild with FORCE_CUDA=1 to get the reason)\n{error}"
        ) from None
    if "compile" in implementations:
        try:
            check_against_reference(
                "torch.compile(eager)", implementations["compile"], expected, buffer_sets[0], label
            )
        except MismatchError:
            raise
        except Exception as error:  # a missing compiler or Triton must not abort the benchmark
            print(f"warning: torch.compile failed, skipping it from here on: {error}", file=sys.stderr)
            del implementations["compile"]
            use_compile = False
    if use_peers:
        for peer_name, peer_call in family.peers(spec, device).items():
            peer = as_tuple(peer_call)
            try:
                check_against_reference(peer_name, peer, expected, buffer_sets[0], label)
            except MismatchError as error:  # a peer's own limits (a row length it refuses) are not ours
                print(f"warning: {peer_name} skipped for {label}: {error}", file=sys.stderr)
                continue
            except Exception as error:  # noqa: BLE001
                print(f"warning: {peer_name} failed for {label}, skipped: {error}", file=sys.stderr)
                continue
            implementations[peer_name] = peer
    names = ("ours", *BASELINES, *(name for name in implementations if name not in ("ours", *BASELINES)))

    copy_ms = timing.copy_ms_per_call(buffer_sets, device, settings)
    copy_rate_gbps = timing.gbps(timing.COPY_TRAFFIC * numel * elem_size, copy_ms)
    # Host-bound where the copy takes less than HOST_BOUND_COPY_MS by either clock: a batch of small
    # copies times the host issuing them (in one GPU run the host issued a shape's copies slower than
    # the GPU ran them, 38.8 us a copy against 10.5 and 11.1 for the other dtypes; the cause was not
    # recorded), and a CUDA graph's copy may run on the copy engines, at another rate; each can only
    # make the copy look slower. (The copy rate is the batch's: at shapes that are not host-bound the
    # batch measures the device.)
    copy_device_ms = timing.device_ms(timing.copy_call, buffer_sets, settings, grad=False) if cuda else None
    host_bound = min(copy_ms, copy_device_ms or copy_ms) < timing.HOST_BOUND_COPY_MS

    rows = []
    for pass_name in PASSES:
        grad = pass_name == "forward+backward"
        make_call = forward_backward_call if grad else forward_call
        elements = (
            family.activation_traffic(spec, pass_name) * numel
            + family.parameter_traffic(spec, pass_name) * shape[-1]
        )
        floor_bytes = elements * elem_size
        copy_bound_ms = floor_bytes / (copy_rate_gbps * 1e6)  # the floor bytes at the copy rate
        ms: dict[str, float | None] = dict.fromkeys(names)
        on_device: dict[str, float | None] = dict.fromkeys(names)
        peak_mib: dict[str, float | None] = dict.fromkeys(names)
        calls = {impl_name: make_call(fn) for impl_name, fn in implementations.items()}
        ms.update(timing.measure_ms(calls, buffer_sets, device, settings, grad=grad))
        if cuda:
            for impl_name, call in calls.items():
                on_device[impl_name] = timing.device_ms(call, buffer_sets, settings, grad=grad)
                if grad:
                    peak_mib[impl_name] = timing.peak_memory_mib(call, buffer_sets[0], device)
        basis = {k: on_device[k] if cuda else ms[k] for k in names}
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
                # Every baseline and peer: its per-call (device) time over ours.
                "speedup": {k: timing.ratio(ms[k], ms["ours"]) for k in names if k != "ours"},
                "device_speedup": (
                    {k: timing.ratio(on_device[k], on_device["ours"]) for k in names if k != "ours"}
                    if cuda
                    else None
                ),
                "copy_ms": copy_ms,
                "copy_device_ms": copy_device_ms,
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
    names = list(dict.fromkeys(name for row in rows for name in row["ms"]))  # ours, baselines, peers
    others = [name for name in names if name != "ours"]
    cuda = any(row["device_ms"] is not None for row in rows)
    headers = [
        "dtype", "shape", "pass", *([] if cuda else ["threads"]), *(f"{k} us" for k in names),
        *(["ours dev us"] if cuda else []), "copy us", "ours GB/s", "copy GB/s",
        *(f"{k} %copy" for k in names), *(f"vs {k}" for k in others),
        *([f"peak MiB {'/'.join(names)}"] if cuda else []),
    ]  # fmt: skip
    lines = []
    for row in rows:
        ms, pct, peak = row["ms"], row["pct_of_copy"], row["peak_mib"]
        ours_device = (row["device_ms"] or {}).get("ours")
        # Host-bound shapes: the percentages would compare launch overheads; show the times only.
        percent = "-" if row["host_bound"] else None
        speedup = row.get("speedup") or {}
        lines.append(
            [
                row["dtype"],
                format_shape(row["shape"]),
                PASS_LABELS[row["pass"]],
                *([] if cuda else ["-" if row["threads"] is None else str(row["threads"])]),
                *(fmt(None if ms.get(k) is None else ms[k] * 1e3, ".1f") for k in names),
                *([fmt(None if ours_device is None else ours_device * 1e3, ".1f")] if cuda else []),
                fmt(row["copy_bound_ms"] * 1e3, ".1f"),
                percent or fmt(row["gbps"]["ours"], ".1f"),
                fmt(row["copy_gbps"], ".1f"),
                *(percent or fmt(pct.get(k), ".1f", "%") for k in names),
                *(fmt(speedup.get(k), ".2f", "x") for k in others),
                *(
                    ["-" if peak is None else "/".join(fmt(peak.get(k), ".1f") for k in names)]
                    if cuda
                    else []
                ),
            ]
        )
    return timing.render_table(headers, lines)


def print_report(family: Family, spec, meta: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    best_copy = max(row["copy_gbps"] for row in rows)
    print(f"\n{spec.op_name} benchmark: {spec.name}, {family.describe(spec)}")
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
        f"graph. GB/s and %copy: the floor\nbytes ({meta['floor_bytes']}) over the device time on CUDA; "
        "'copy us' = floor bytes at the copy rate;\n'-' where the copy itself (in a batch or a CUDA graph) "
        "takes under "
        f"{timing.HOST_BOUND_COPY_MS * 1e3:.0f} us (the host's launch time, not memory, sets the pace: "
        "compare the times). vs <name>: its time over ours.\n"
        "peak MiB: allocated by one fwd+bwd beyond its inputs (CUDA only).\n"
    )
    print(format_table(rows))


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------
def parse_args(family: Family, op_name: str, argv: Sequence[str] | None = None) -> argparse.Namespace:
    default_json = RESULTS / f"bench_{op_name}.json"
    quick_json = RESULTS / "quick" / f"bench_{op_name}.json"  # git ignores quick/: smoke tests only
    parser = argparse.ArgumentParser(
        description=f"Benchmark {op_name} against PyTorch eager, torch.compile, the family's peers, a copy."
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
        help=f"shapes like 4096x1024 (default: {' '.join(family.default_shapes_cuda)} on CUDA, "
        f"{' '.join(family.default_shapes_cpu)} on the CPU, {' '.join(QUICK_SHAPES)} with --quick)",
    )
    parser.add_argument(
        "--threads", nargs="+", type=int, metavar="N", help="CPU threads, each in turn (default: torch's)"
    )
    parser.add_argument("--quick", action="store_true", help="tiny shapes and few calls: a smoke test")
    parser.add_argument("--no-compile", action="store_true", help="skip the torch.compile baseline")
    parser.add_argument("--no-peers", action="store_true", help="skip the family's outside implementations")
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


def floor_bytes_text(family: Family, spec) -> str:
    """The floor bytes of both passes in words, from the family's parameter traffic."""
    (forward, both), (forward_n, both_n) = (
        [traffic(spec, pass_name) for pass_name in PASSES]
        for traffic in (family.activation_traffic, family.parameter_traffic)
    )
    return (
        f"forward ({forward} x numel + {forward_n} x N) x elem_size, "
        f"forward+backward ({both} x numel + {both_n} x N) x elem_size"
    )


def main(family: Family, op_name: str, argv: Sequence[str] | None = None) -> None:
    args = parse_args(family, op_name, argv)
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
            defaults = family.default_shapes_cuda
        else:
            defaults = family.default_shapes_cpu
        shapes = [timing.parse_shape(text) for text in defaults]
    spec = load_spec(family, op_name)

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
                        family,
                        spec,
                        shape,
                        DTYPES[dtype_name],
                        device,
                        settings,
                        use_compile,
                        not args.no_peers,
                    )
                    rows.extend(config_rows)
    except MismatchError as error:
        raise SystemExit(f"error: {error}\nRefusing to report timings of a wrong result.") from None

    floor_bytes = floor_bytes_text(family, spec)
    meta = {
        "device": str(device),
        "device_type": "gpu" if device.type == "cuda" else "cpu",
        "device_name": timing.device_name(device),
        "torch_version": torch.__version__,
        "cuda_version": torch.version.cuda or "cpu",
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),  # eager's CPU kernels'
        "cpu_loops": importlib.import_module(PACKAGE).CPU_LOOPS,  # ours (build_config.py)
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "sources_sha256": sources_digest(),
        "op": spec.name,
        "package": PACKAGE,
        "family": family.name,
        **family.meta(spec),
        "quick": args.quick,
        "compile": use_compile,
        "peers": sorted({name for row in rows for name in row["ms"]} - {"ours", *BASELINES}),
        "cpu_threads": thread_counts if device.type == "cpu" else None,
        "floor_bytes": floor_bytes,
        "method": (
            "median of per-call times after warm-up (CUDA events on GPU, time.perf_counter on CPU), "
            f"implementations timed in {timing.ROUNDS} interleaved rounds; device_ms (CUDA): median of "
            f"CUDA-graph replays of whole rounds over the buffer sets, at least {timing.MIN_CALLS_PER_GRAPH} "
            "calls, divided by the calls, the kernels without the "
            "host's launch time; random normal inputs, rotated over buffer sets exceeding 3x L2 when one set "
            f"fits in L2; floor bytes: {floor_bytes}, N = x.size(-1); "
            "gbps = floor bytes / time and pct_of_copy = (floor bytes / copy rate) / time x 100, from "
            "device_ms on CUDA and per-call times on the CPU; copy rate = 2 x numel x elem_size / time of "
            "dst.copy_(x) (CUDA: batches queued back to back between two events); speedup_* from per-call "
            "times, device_speedup_* from device times; host_bound: the smaller of the copy's time and, on "
            f"CUDA, its device time (copy_device_ms) under {timing.HOST_BOUND_COPY_MS * 1e3:.0f} us (report "
            "microseconds per call, not percentages); "
            "forward+backward = outputs = f(*inputs, *params); torch.autograd.grad(outputs, "
            f"(*inputs, *params), one grad_out per output); inputs: {', '.join(family.activations(spec))}; "
            "peak_mib: "
            "max_memory_allocated during one forward+backward minus memory allocated before it; every "
            "implementation but eager checked against the reference in float64 before timing"
        ),
        "timing": {
            "warmup": settings.warmup,
            "repeats": settings.repeats,
            "min_repeats": settings.min_repeats,
            "budget_s": settings.budget_s,
        },
    }
    print_report(family, spec, meta, rows)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"meta": meta, "results": rows}, indent=2) + "\n")
    print(f"\nresults written to {args.json}")


def _run_views(family: Family, spec, rows: int, cols: int, dtype, parameter_dtype) -> None:
    """A forward and backward on CUDA of a rows x cols contiguous view and of one shifted by an
    element (the kernels' one-element path)."""
    device = torch.device("cuda")
    data = {
        name: torch.randn(rows * cols + 1, device=device, dtype=dtype) for name in family.activations(spec)
    }
    for shift in (0, 1):
        inputs = {name: t[shift : shift + rows * cols].view(rows, cols) for name, t in data.items()}
        family.sanitizer_rows(spec, inputs["x"])
        inputs = {name: t.requires_grad_() for name, t in inputs.items()}
        inputs.update(family.make_parameters(spec, cols, parameter_dtype, device))
        y = bind(family, spec, spec.function)(inputs)
        torch.autograd.grad(y, tuple(inputs.values()), [torch.randn_like(t) for t in y])


def sanitize(family: Family, op_name: str) -> None:
    """A small workload for compute-sanitizer: every code path of the family's CUDA kernels, once.

    Each shape runs on a contiguous view and on one shifted by an element (the kernels' one-element
    path). Run it with PYTORCH_NO_CUDA_MEMORY_CACHING=1 so that an out-of-bounds access is not hidden
    inside a larger cached block (benchmarks/gpu_suite.py does).
    """
    spec = load_spec(family, op_name)
    for environment, shapes in [({}, family.sanitizer_shapes), *family.sanitizer_environments(spec)]:
        with mock.patch.dict(os.environ, environment):  # restored afterwards
            for dtype, parameter_dtype in family.sanitizer_dtypes:
                for rows, cols in shapes:
                    _run_views(family, spec, rows, cols, dtype, parameter_dtype)
            torch.cuda.synchronize()
    print("sanitizer case: done")
