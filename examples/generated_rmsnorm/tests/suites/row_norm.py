"""The row normalization family's tests, written once for the project and run for each operator.

An operator's test file (tests/test_<operator>.py) imports them and names its operator in OPERATOR;
pytest then collects them there, for that operator, with the operator's spec (its function,
reference, layer and norm, from src/generated_rmsnorm/families/row_norm.py).

Each case runs on the CPU and on CUDA; the CUDA cases skip where no GPU is visible. Every test draws
fresh random inputs (rows with a mean away from zero, so that LayerNorm's centring matters); results
are compared with a float64 reference computed by plain PyTorch operators under per-dtype tolerances.

An operator with a residual add takes two activations, x and residual, and returns two outputs, the
norm and residual_out = x + residual; the tests hold them as lists (xs, outputs, grad_outs), of one
element for an operator without the add.
"""

import concurrent.futures
import copy
import inspect
import json
import math
import os
import pickle
import re
import tempfile

import pytest
import torch
import torch.autograd.forward_ad as fwAD
from torch import nn

import generated_rmsnorm  # (loads the library and registers the operators)
from generated_rmsnorm.families.row_norm import (
    BACKWARD_GROUPS_VARIABLE,
    CLUSTER_LIMIT_VARIABLE,
    SHARED_MEMORY_LIMIT_VARIABLE,
    SPECS,
    WORKSPACE_VARIABLE,
)

from .common import (
    CUDA,
    DATA_PARALLEL_DEVICES,
    DEVICES,
    DTYPES,
    HALF_DTYPES,
    assert_refused_while_tracing,
    calls_of,
    check_data_parallel,
    spec_fixture,
    test_an_operator_the_library_lacks_asks_for_a_rebuild,  # noqa: F401 (run here, for this family)
    without_vmap_fallback,
)

spec = spec_fixture(SPECS, generated_rmsnorm)
# Relative to the largest element of the float64 reference: one rounding to the dtype, plus the
# float32 statistics' rounding over rows of up to 10^5 elements.
TOLERANCES = {torch.float64: 1e-10, torch.float32: 2e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}
# Rows x N: N = 1, odd N, N not a multiple of any vector width, a few very wide rows, 1-D and 3-D
# inputs, and rows that do not split evenly into the CPU's chunks of the parameter gradients.
SHAPES = [(7,), (1, 1), (5, 3), (4, 33), (3, 5, 64), (64, 1000), (129, 257), (9, 1023), (2, 40001), (1025, 7)]


def make_inputs(spec, shape, dtype, device, param_dtype=None, requires_grad=False):
    """The operator's activations (x; with a residual add x and residual, whose sum has rows of mean
    0.5 and standard deviation about 2), its parameters and a gradient for each output, in float64
    and rounded to the dtypes; the parameters in param_dtype (that of x by default)."""
    n = shape[-1]
    if spec.residual_add:
        xs = [
            (1.5 * torch.randn(shape, dtype=torch.float64, device=device) + 0.25).to(dtype) for _ in range(2)
        ]
    else:
        xs = [(2 * torch.randn(shape, dtype=torch.float64, device=device) + 0.5).to(dtype)]
    params = [(1 + 0.5 * torch.randn(n, dtype=torch.float64, device=device)).to(param_dtype or dtype)]
    if spec.has_bias:
        params.append(torch.randn(n, dtype=torch.float64, device=device).to(param_dtype or dtype))
    grad_outs = [torch.randn(shape, dtype=torch.float64, device=device).to(dtype) for _ in xs]
    if requires_grad:
        for t in [*xs, *params]:
            t.requires_grad_()
    return xs, params, grad_outs


def outputs_of(spec, result):
    """The operator's outputs as a list: [y], or [y, residual_out] with a residual add."""
    return list(result) if spec.residual_add else [result]


def run(spec, xs, params, *eps):
    return outputs_of(spec, spec.function(*xs, *params, *eps))


def normalized(xs):
    """The tensor the operator normalizes: x, or x + residual (rounded to their dtype, as the
    kernels round residual_out)."""
    return xs[0] if len(xs) == 1 else xs[0] + xs[1]


def backward_arguments(spec, xs, grad_outs):
    """The backward operator's tensors before the parameters: (grad_out, x), or with a residual add
    (grad_out, grad_residual_out, residual_out)."""
    xs = [t.detach() for t in xs]
    if spec.residual_add:
        return [grad_outs[0], grad_outs[1], normalized(xs)]
    return [grad_outs[0], xs[0]]


def reference_outputs(spec, xs, params, grad_outs, eps):
    """The float64 reference's outputs and gradients (each activation's, then each parameter's; none
    where grad_outs is None).

    With a residual add the operator normalizes residual_out, x + residual rounded once to their
    dtype (where a row's spread is small against its values, that rounding moves the norm more than
    the dtype's tolerance): the reference normalizes the same rounded sum, its gradient passing
    through the rounding unchanged."""
    xs64 = [t.detach().double().requires_grad_() for t in xs]
    params64 = [p.detach().double().requires_grad_() for p in params]
    arguments = xs64
    if spec.residual_add:
        rounding = normalized([t.detach() for t in xs]).double() - (xs64[0] + xs64[1]).detach()
        arguments = [xs64[0] + rounding, xs64[1]]  # exact in float64: the sum is the rounded one
    outputs = outputs_of(spec, spec.reference(*arguments, *params64, eps))
    grads = ()
    if outputs[0].numel() and grad_outs is not None:
        grads = torch.autograd.grad(outputs, [*xs64, *params64], [g.double() for g in grad_outs])
    return [o.detach() for o in outputs], grads


def gradient_scales(spec, xs, params, grad_outs, eps):
    """The magnitude of the terms each gradient adds up, before they cancel: each activation's row
    terms (rstd times |weight * grad_out|, plus |grad_residual_out|), then each parameter's sum over
    the rows of |its terms|. An error is measured against these (a gradient near zero from large
    terms that cancel, as with N = 1, is only known to within their rounding)."""
    x = sum(t.detach().double() for t in xs)
    grad_out = grad_outs[0].detach().double().abs()
    centered = x - x.mean(-1, keepdim=True) if spec.has_bias else x
    rstd = torch.rsqrt(centered.pow(2).mean(-1, keepdim=True) + eps)
    weight = params[0].detach().double() + (1 if spec.zero_centered_weight else 0)
    rows = grad_out.reshape(-1, x.shape[-1])
    # |x| too: the reference rounds x - mean (exactly 0 for LayerNorm at N = 1) to within |x|'s ulps.
    x_hat = ((centered.abs() + x.abs()) * rstd).reshape(rows.shape)
    activation = rstd * weight.abs() * grad_out
    if spec.residual_add:
        activation = activation + grad_outs[1].detach().double().abs()
    scales = [activation.amax().item()] * len(xs) + [(rows * x_hat).sum(0).amax().item()]
    if spec.has_bias:
        scales.append(rows.sum(0).amax().item())
    return scales


def backward_part(xs, values):
    """Of values for each activation and each parameter, those the backward operator returns: the
    first activation's (the one gradient of x and residual), then the parameters'."""
    return [values[0], *values[len(xs) :]]


def assert_close(actual, expected, dtype, scale=None):
    """Within the dtype's tolerance of `scale`, by default the largest element of the reference."""
    tolerance = TOLERANCES[dtype]
    if scale is None:
        scale = expected.abs().max().item() if expected.numel() else 1.0
    torch.testing.assert_close(actual.double(), expected, rtol=tolerance, atol=tolerance * max(scale, 1e-30))


def assert_grads_close(grads, expected_grads, scales, dtype):
    for grad, expected, scale in zip(grads, expected_grads, scales, strict=True):
        # float32 statistics: a half x's gradients are as exact as the dtype they are rounded to.
        assert_close(grad, expected, grad.dtype if grad.dtype != torch.float32 else dtype, scale)


def check_against_reference(spec, device, dtype, shape, param_dtype=None):
    check_inputs(spec, *make_inputs(spec, shape, dtype, device, param_dtype, requires_grad=True), dtype)


def check_inputs(spec, xs, params, grad_outs, dtype):
    """The operator's outputs and gradients for these inputs (of `dtype`) against the reference."""
    eps = spec.default_eps
    outputs = run(spec, xs, params, eps)
    expected_outputs, expected_grads = reference_outputs(spec, xs, params, grad_outs, eps)
    for output, expected in zip(outputs, expected_outputs, strict=True):
        assert output.dtype == dtype and output.shape == xs[0].shape and output.is_contiguous()
        assert_close(output, expected, dtype)
    if spec.residual_add:
        assert torch.equal(outputs[1], normalized(xs))  # x + residual, rounded once to the dtype
    inputs = [*xs, *params]
    grads = torch.autograd.grad(outputs, inputs, grad_outs)
    for tensor, grad in zip(inputs, grads, strict=True):
        assert grad.dtype == tensor.dtype and grad.shape == tensor.shape
    assert_grads_close(grads, expected_grads, gradient_scales(spec, xs, params, grad_outs, eps), dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_forward_and_backward_match_reference(spec, device, dtype, shape):
    check_against_reference(spec, device, dtype, shape)


@pytest.mark.parametrize("shape", [(64, 96), (9, 1023), (3, 5, 40)], ids=str)
@pytest.mark.parametrize("dtype", HALF_DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_float32_parameters_with_half_x(spec, device, dtype, shape):
    # What autocast passes: a low-precision activation and float32 parameters, whose gradients are
    # float32.
    check_against_reference(spec, device, dtype, shape, param_dtype=torch.float32)


@pytest.mark.parametrize("shape", [(4096, 96), (300, 4097), (3, 1 << 18)], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_large_shapes(spec, device, shape):
    check_against_reference(spec, device, torch.float32, shape)


# Rows the CUDA kernels hold in registers at one to eight vectors a thread (300 x 4096: two in the
# residual-add RMSNorm's 16-bit rows), rows they read again for each step or split over a cluster
# (over 4096 vectors; 3 x 32776: slices of unequal lengths), many rows of a few threads each, and
# enough short rows for the forward to give each a warp or 16 threads. Then N not a multiple of the
# vector width, whose rows start at every offset from a vector boundary: in registers, in clusters,
# read again for each step, short rows several to a block.
CUDA_SHAPES = [
    (4099, 1024),
    (300, 4096),
    (33, 16384),
    (5, 32768),
    (3, 32776),
    (4, 65536),
    (3, 100000),
    (2, 1 << 17),
    (20000, 24),
    (4099, 256),
    (1000, 4095),
    (33, 16383),
    (7, 40003),
    (2, 300001),
    (4099, 1001),
    (20000, 300),
    (20000, 131),
]


@CUDA
@pytest.mark.parametrize("shape", CUDA_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32], ids=str)
def test_cuda_shapes(spec, dtype, shape):
    check_against_reference(spec, "cuda", dtype, shape)
    check_against_reference(spec, "cuda", dtype, shape, param_dtype=torch.float32)


@CUDA
@pytest.mark.parametrize("workspace", ["1", "0"], ids=["workspace", "without_workspace"])
def test_cuda_graph_captures_forward_and_backward(spec, workspace, monkeypatch):
    # A training step in one graph: the forward and the backward, with its workspace and second
    # kernel (WORKSPACE_VARIABLE=1) or, where the GPU takes it, without (one cooperative launch:
    # float32 rows of 384 vectors, four a thread, staged, in 64 row groups of 64 or 65 rows: enough,
    # ROWS_PER_KEPT_ROW rows for each of up to two kept rows). Replays with new inputs must give new,
    # right results.
    monkeypatch.setenv(WORKSPACE_VARIABLE, workspace)
    monkeypatch.setenv(BACKWARD_GROUPS_VARIABLE, "64")
    shape = (4100, 1536)
    xs, params, grad_outs = make_inputs(spec, shape, torch.float32, "cuda", requires_grad=True)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up outside the capture, as CUDA graphs require
        for _ in range(3):
            torch.autograd.grad(run(spec, xs, params), [*xs, *params], grad_outs)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        outputs = run(spec, xs, params)
        grads = torch.autograd.grad(outputs, [*xs, *params], grad_outs)
    for _ in range(3):
        new_xs, new_params, new_grad_outs = make_inputs(spec, shape, torch.float32, "cuda")
        with torch.no_grad():
            for tensor, value in zip(
                [*xs, *params, *grad_outs], [*new_xs, *new_params, *new_grad_outs], strict=True
            ):
                tensor.copy_(value)
        graph.replay()
        torch.cuda.synchronize()
        expected_outputs, expected_grads = reference_outputs(spec, xs, params, grad_outs, spec.default_eps)
        for output, expected in zip(outputs, expected_outputs, strict=True):
            assert_close(output, expected, torch.float32)
        scales = gradient_scales(spec, xs, params, grad_outs, spec.default_eps)
        assert_grads_close(grads, expected_grads, scales, torch.float32)
    # Which backward the shape takes, from an eager call on inputs of its own: the captured leaves'
    # gradient nodes belong to the side stream (lab AX0: torch warned of the streams' mismatch).
    xs, params, grad_outs = make_inputs(spec, shape, torch.float32, "cuda", requires_grad=True)
    kept = kept_rows_ran(lambda: torch.autograd.grad(run(spec, xs, params), [*xs, *params], grad_outs))
    assert kept == (workspace == "0" and torch.cuda.get_device_capability() >= (8, 0))


@CUDA
def test_kernels_run_on_the_current_stream(spec):
    # The inputs are written on a side stream behind a long sleep; a kernel launched on any other
    # stream would read them before they are written.
    shape = (512, 2048)
    new_xs, new_params, new_grad_outs = make_inputs(spec, shape, torch.float32, "cuda")
    xs = [torch.zeros_like(t) for t in new_xs]
    grad_outs = [torch.zeros_like(t) for t in new_grad_outs]
    torch.cuda.synchronize()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        torch.cuda._sleep(100_000_000)  # about 50 ms of GPU time on this stream
        for tensor, value in zip([*xs, *grad_outs], [*new_xs, *new_grad_outs], strict=True):
            tensor.copy_(value)
        outputs = run(spec, xs, new_params)
        grads = spec.backward_op(*backward_arguments(spec, xs, grad_outs), *new_params, spec.default_eps)
    torch.cuda.synchronize()
    eps = spec.default_eps
    expected_outputs, expected_grads = reference_outputs(spec, new_xs, new_params, new_grad_outs, eps)
    for output, expected in zip(outputs, expected_outputs, strict=True):
        assert_close(output, expected, torch.float32)
    scales = gradient_scales(spec, new_xs, new_params, new_grad_outs, eps)
    assert_grads_close(grads, backward_part(xs, expected_grads), backward_part(xs, scales), torch.float32)


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
@pytest.mark.parametrize("shape", [(300, 128), (65, 16384), (2000, 4096)], ids=str)
def test_second_device(spec, shape, monkeypatch):
    # (2000 x 4096 in 64 row groups of 31 or 32 rows: RMSNorm's backward without its workspace on
    # cuda:1, where the GPU takes it; the LayerNorms' 16-bit rows, four kept rows, more than their
    # stages, keep the workspace.)
    if shape != (2000, 4096):
        check_against_reference(spec, "cuda:1", torch.bfloat16, shape)
        return
    monkeypatch.setenv(BACKWARD_GROUPS_VARIABLE, "64")
    ran = kept_rows_ran(lambda: check_against_reference(spec, "cuda:1", torch.bfloat16, shape))
    assert ran == (not spec.has_bias and torch.cuda.get_device_capability(1) >= (8, 0))


def kernel_events(fn):
    """Runs fn under the profiler; the trace's event of each CUDA kernel launch (its args hold the
    grid, the block and the block's shared memory, static and dynamic together)."""
    activities = [torch.profiler.ProfilerActivity.CUDA]
    with torch.profiler.profile(activities=activities, acc_events=True) as profile:
        fn()
        torch.cuda.synchronize()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "trace.json")
        profile.export_chrome_trace(path)
        with open(path) as trace:
            events = json.load(trace)["traceEvents"]
    return [event for event in events if event.get("cat") == "kernel"]


def kernel_launches(fn):
    """Runs fn under the profiler; each CUDA kernel launch as (demangled name, grid, block), the grid
    and block as lists of three (from the profiler's trace)."""
    return [(event["name"], event["args"]["grid"], event["args"]["block"]) for event in kernel_events(fn)]


def kernels_run(fn):
    """Runs fn under the profiler; the demangled names of the CUDA kernels that ran, one each."""
    return sorted({name for name, _, _ in kernel_launches(fn)})


def template_arguments(name):
    """The template arguments of a demangled kernel name (none of them holds a comma or a '<'):
    forward_kernel's and forward_kernel_two_blocks' Norm, scalar_t, param_t, kVec, kItems, kCached,
    kShifted; backward_kernel's Norm, scalar_t, param_t, kVec, kItems, kInRegisters, kStages,
    kShifted, kClustered, kKeep."""
    return name.split(">(")[0].split("<", 1)[1].split(", ")


def backward_launches(launches):
    """The family's backward kernels among kernel_launches' (name, grid, block): (template arguments,
    grid, block) of each (see template_arguments)."""
    return [
        (template_arguments(name), grid, block)
        for name, grid, block in launches
        if "row_norm::cuda::backward_kernel<" in name
    ]


def kept_rows_ran(fn):
    """Runs fn under the profiler; whether a backward kernel without the workspace ran (kKeep)."""
    named = [(name, None, None) for name in kernels_run(fn)]
    return any(arguments[9] == "true" for arguments, _, _ in backward_launches(named))


def backward_kernel_stages(fn):
    """Runs fn under the profiler; for each CUDA backward kernel that ran (by name), the stages it
    staged its rows in, 0 where it did not (its template argument kStages)."""
    named = [(name, None, None) for name in kernels_run(fn)]
    return [int(arguments[6]) for arguments, _, _ in backward_launches(named)]


def forward_kernels(names):
    """The forward kernels among the demangled kernel names, without their namespace and template
    arguments (forward_kernel, forward_kernel_two_blocks, forward_staged_kernel), one each."""
    short = [name.split("<")[0].rsplit("::", 1)[-1] for name in names]
    return sorted({name for name in short if name.startswith("forward_")})


def built_for_clusters():
    """Whether the build has code for GPUs with thread block clusters (sm_90 and newer), which the
    kernels launch clusters from (kernel_has_clusters in csrc/row_norm/cuda.cuh): where
    TORCH_CUDA_ARCH_LIST is set, as the build read it, an architecture of 9.0 or more in it (a
    number, or Hopper or Blackwell; 8.0+PTX runs on newer GPUs without them); unset, the build
    targets the visible GPUs."""
    listed = os.environ.get("TORCH_CUDA_ARCH_LIST")
    if not listed:
        return True
    majors = [int(major) for major in re.findall(r"(\d+)\.\d", listed)]
    return any(major >= 9 for major in majors) or bool(re.search(r"Hopper|Blackwell", listed))


def skip_without_clusters():
    """Skips the calling test where the GPU or the build has no thread block clusters."""
    if torch.cuda.get_device_capability()[0] < 9 or not built_for_clusters():
        pytest.skip("thread block clusters need sm_90 or newer and a build with code for it")


@CUDA
@pytest.mark.parametrize(
    "dtype, shape, geometry",
    [
        # geometry: the staged kernel's (blocks a cluster, threads a block) without and with the
        # residual add, whose slices hold residual too: the fewest blocks whose slices take at most
        # 48 KiB (else 8, up to 64 KiB), a thread for every 128 bytes, 256 to 512.
        (torch.bfloat16, (6, 65536), ((4, 256), (8, 256))),
        (torch.bfloat16, (6, 65600), ((4, 288), (8, 288))),  # slices of 32800 bytes
        (torch.float32, (6, 65536), ((8, 256), (8, 512))),
        (torch.float64, (6, 32768), ((8, 256), (8, 512))),
    ],
    ids=str,
)
def test_wide_rows_staged_in_shared_memory(spec, dtype, shape, geometry, monkeypatch):
    # Rows wider than a block's registers hold, split over a cluster (sm_90 and newer): each block
    # copies its slice of the row into shared memory, in the geometry above; capped below that, it
    # keeps the slice in registers instead. Right both ways; without clusters, the rows are read
    # again for each step.
    clusters = torch.cuda.get_device_capability()[0] >= 9 and built_for_clusters()
    monkeypatch.delenv(SHARED_MEMORY_LIMIT_VARIABLE, raising=False)
    launches = kernel_launches(lambda: check_against_reference(spec, "cuda", dtype, shape))
    ran = forward_kernels(name for name, _, _ in launches)
    assert ran == (["forward_staged_kernel"] if clusters else ["forward_kernel"])
    if clusters:
        cluster, threads = geometry[1 if spec.residual_add else 0]
        staged = {(tuple(grid), tuple(block)) for name, grid, block in launches if "forward_staged" in name}
        assert staged == {((shape[0] * cluster, 1, 1), (threads, 1, 1))}
    monkeypatch.setenv(SHARED_MEMORY_LIMIT_VARIABLE, str(16 * 1024))
    ran = forward_kernels(kernels_run(lambda: check_against_reference(spec, "cuda", dtype, shape)))
    assert len(ran) == 1 and ran[0] in ("forward_kernel", "forward_kernel_two_blocks")


@CUDA
@pytest.mark.parametrize(
    "dtype, shape, geometry",
    [
        # geometry: the forward's (vectors a thread, threads a row) for RMSNorm, LayerNorm, and each
        # with the residual add; one row a block (fewer rows than the warp rule wants). Rows of 1025 to
        # 2048 vectors: four vectors on up to 512 threads with the add, else eight on up to 256; rows
        # of 257 to 1024: eight for LayerNorm's 16-bit rows without the add, two on up to 512 threads
        # for the residual-add RMSNorm's 16-bit rows, else four. Rows that do
        # not start on a vector boundary (N odd) keep eight and four. 8 rows, no more than the GPU's
        # multiprocessors: the fewest vectors a thread on up to 512 threads, for every norm (the first
        # two cases catch LayerNorm's rule applied to few rows; at 16384, pick_items and the
        # residual-add rule agree).
        (torch.bfloat16, (300, 16384), ((8, 256), (8, 256), (4, 512), (4, 512))),
        (torch.float16, (300, 16384), ((8, 256), (8, 256), (4, 512), (4, 512))),
        (torch.float32, (300, 8192), ((8, 256), (8, 256), (4, 512), (4, 512))),
        (torch.bfloat16, (300, 4096), ((4, 128), (8, 64), (2, 256), (4, 128))),
        (torch.float16, (300, 8192), ((4, 256), (8, 128), (2, 512), (4, 256))),
        (torch.float32, (300, 4096), ((4, 256), (4, 256), (4, 256), (4, 256))),
        (torch.bfloat16, (300, 16383), ((8, 256), (8, 256), (8, 256), (8, 256))),
        (torch.bfloat16, (300, 4095), ((4, 128), (4, 128), (4, 128), (4, 128))),
        (torch.bfloat16, (8, 4096), ((1, 512), (1, 512), (1, 512), (1, 512))),
        (torch.float16, (8, 8192), ((4, 256), (4, 256), (4, 256), (4, 256))),
        (torch.bfloat16, (8, 16384), ((4, 512), (4, 512), (4, 512), (4, 512))),
    ],
    ids=str,
)
def test_forward_vectors_a_thread(spec, dtype, shape, geometry):
    # The forward holds a row's vectors in registers, as many a thread as pick_forward_items in
    # csrc/row_norm/cuda.cuh gives for the norm: right, and in the geometry above (the forward kernel's
    # template argument kItems, the launch's block).
    # The cases of 8 rows assume no more rows than multiprocessors, the others more.
    multiprocessors = torch.cuda.get_device_properties().multi_processor_count
    if (shape[0] <= multiprocessors) != (shape[0] == 8):
        pytest.skip(f"{shape[0]} rows on {multiprocessors} multiprocessors: the few-rows bound's other side")
    launches = kernel_launches(lambda: check_against_reference(spec, "cuda", dtype, shape))
    forward = {
        (int(template_arguments(name)[4]), block[0])
        for name, _, block in launches
        if re.search(r"row_norm::cuda::forward_kernel(_two_blocks)?<", name)
    }
    kind = (2 if spec.residual_add else 0) + (1 if spec.norm == "layer_norm" else 0)
    assert forward == {geometry[kind]}


SMALLER_GPU_BYTES = 99 * 1024  # shared memory a block on sm_86, sm_89 and sm_120
# More than the backward kernels' own shared memory with float sums (up to 896 bytes by ptxas), but
# for the 16-bit LayerNorm kernels of rows in clusters, which also keep each staged row's first 16 bytes
# a warp (1,408 bytes; kStagedShift in csrc/row_norm/cuda.cuh): their stages take half of a block's room
# (test_backward_with_few_row_groups), far from the limit.
STATIC_BYTES = 1024


@CUDA
@pytest.mark.parametrize(
    "dtype, shape, staging_kib",
    [
        (torch.bfloat16, (300, 16384), 128),  # 512 threads at four vectors a thread
        (torch.float32, (300, 8192), 128),  # the same
        (torch.float32, (300, 6400), 104),  # 416 threads
        (torch.float32, (300, 6144), 96),  # 384 threads
        (torch.float32, (33, 16384), 128),  # on sm_90 and newer, a cluster of two such blocks a row
    ],
    ids=str,
)
def test_backward_on_a_gpu_with_less_shared_memory(spec, dtype, shape, staging_kib, monkeypatch):
    # The backward stages a block's next rows in shared memory (128 bytes a thread a stage at four
    # vectors a thread; staging_kib: a block's two stages) where the GPU gives a block the room: up to
    # three stages for RMSNorm without a residual add in rows that start on a vector boundary, as
    # here (kMostStages in csrc/row_norm/cuda.cuh), two for the others, as many as fit. On GPUs with
    # 99 KiB a block it must stage fewer rows, or read the rows of larger blocks without staging
    # (cudaFuncSetAttribute refuses more). The limit variable caps this GPU's shared memory to
    # theirs; the profiler shows which kernel ran. With a residual add, a stage holds grad_residual_out
    # too where it fits (half as much again: kMostStagedTensors), else x and grad_out alone, so that its
    # stages are the same: under the cap, its float32 rows of 6144 are staged in two stages of two
    # tensors (96 KiB; three would take 144).
    most = 3 if spec.norm == "rms_norm" and not spec.residual_add else 2

    def stages(limit):
        fitting = [n for n in range(2, most + 1) if n * staging_kib // 2 * 1024 + STATIC_BYTES <= limit]
        return max(fitting, default=0)

    monkeypatch.delenv(SHARED_MEMORY_LIMIT_VARIABLE, raising=False)
    optin = getattr(torch.cuda.get_device_properties(), "shared_memory_per_block_optin", None)  # torch 2.7+
    ran = backward_kernel_stages(lambda: check_against_reference(spec, "cuda", dtype, shape))
    if optin is not None and shape[0] == 300:  # rows of one block on any GPU (no cluster)
        assert ran == [stages(optin)]
    monkeypatch.setenv(SHARED_MEMORY_LIMIT_VARIABLE, str(SMALLER_GPU_BYTES))
    ran = backward_kernel_stages(lambda: check_against_reference(spec, "cuda", dtype, shape))
    if optin is not None or not stages(SMALLER_GPU_BYTES):  # (else this GPU may have less still)
        assert ran == [stages(SMALLER_GPU_BYTES if optin is None else min(SMALLER_GPU_BYTES, optin))]


@CUDA
def test_shared_memory_cap_between_calls(spec, monkeypatch):
    # A kernel's shared memory setting is raised as calls need it and never lowered under a later
    # call's feet: calls with and without the cap, at widths whose blocks take different amounts,
    # in turn (a stage rule with a second cache of the setting once failed the third launch). With a
    # residual add, also one kernel whose stages hold three tensors uncapped (144 KiB) and two under
    # the cap (96 KiB) at the same width, in turn: its occupancy caches hold one entry for each.
    steps = [("101376", (64, 6144)), (None, (64, 4096)), ("101376", (64, 6144))]
    if spec.residual_add:
        steps += [(None, (300, 6144)), ("101376", (300, 6144)), (None, (300, 6144))]
    for cap, shape in steps:
        if cap is None:
            monkeypatch.delenv(SHARED_MEMORY_LIMIT_VARIABLE, raising=False)
        else:
            monkeypatch.setenv(SHARED_MEMORY_LIMIT_VARIABLE, cap)
        check_against_reference(spec, "cuda", torch.float32, shape)


@CUDA
def test_backward_stages_grad_residual_out_where_it_fits(spec, monkeypatch):
    # With a residual add, each stage of the backward holds grad_residual_out beside x and grad_out
    # where it is given and the block has room for a third tensor (kMostStagedTensors in
    # csrc/row_norm/cuda.cuh), else x and grad_out alone. float32 rows of 6144 are staged in two stages
    # on 384 threads at four vectors a thread: 96 KiB for two tensors, 144 KiB for three. The
    # profiler's trace gives a kernel's static and dynamic shared memory together.
    needs_residual_add(spec)
    optin = getattr(torch.cuda.get_device_properties(), "shared_memory_per_block_optin", None)  # torch 2.7+
    if optin is None or optin < 144 * 1024 + STATIC_BYTES:
        pytest.skip("this GPU's blocks have no room for three tensors' stages, or torch does not say")
    xs, params, grad_outs = make_inputs(spec, (300, 6144), torch.float32, "cuda")
    grad_out, grad_residual_out, residual_out = backward_arguments(spec, xs, grad_outs)

    def staging_kib(given, limit):
        if limit is None:
            monkeypatch.delenv(SHARED_MEMORY_LIMIT_VARIABLE, raising=False)
        else:
            monkeypatch.setenv(SHARED_MEMORY_LIMIT_VARIABLE, str(limit))
        arguments = (grad_out, grad_residual_out if given else None, residual_out, *params, spec.default_eps)
        events = kernel_events(lambda: spec.backward_op(*arguments))
        backward = [e for e in events if "row_norm::cuda::backward_kernel<" in e["name"]]
        assert len(backward) == 1 and int(template_arguments(backward[0]["name"])[6]) == 2
        shared = backward[0]["args"].get("shared memory")
        assert shared is not None, "the profiler's trace gives no shared memory"
        return shared // 1024  # whole KiB of staging, and the kernel's own, under STATIC_BYTES

    assert staging_kib(True, None) == 144
    assert staging_kib(False, None) == 96
    assert staging_kib(True, SMALLER_GPU_BYTES) == 96


@CUDA
@pytest.mark.parametrize(
    "dtype, shape, groups",
    [
        (torch.bfloat16, (20, 300001), 3),  # rows wider than registers and clusters hold: the workspace
        (torch.float32, (20, 150001), 3),  # the same
        (torch.bfloat16, (40, 16383), 5),  # a row a block in registers: 8 groups of rows that start alike
        (torch.bfloat16, (300, 201), 7),  # four rows a block, 32 threads each: 6 groups
        (torch.float32, (9, 40003), 2),  # clusters of eight blocks: 4 groups
        (torch.bfloat16, (40, 65536), 2),  # clusters of four blocks, rows staged: 20 rows a cluster
        (torch.float32, (300, 4096), 7),  # N a multiple of the vector width
    ],
    ids=str,
)
def test_backward_with_few_row_groups(spec, dtype, shape, groups, monkeypatch):
    # The backward's row groups each walk many rows, as on a smaller GPU or with many more rows: the
    # sums of the parameters' gradients over rows, in registers or in the workspace, and, where N is
    # not a multiple of the vector width, over rows that start at different offsets from a vector
    # boundary (in registers the grid's rows are rounded so that a group's rows start alike).
    monkeypatch.setenv(BACKWARD_GROUPS_VARIABLE, str(groups))
    check_against_reference(spec, "cuda", dtype, shape)


# The backward without its workspace (kKeep in csrc/row_norm/cuda.cuh): rows staged from each row's
# start at four vectors a thread (more than 256 vectors a row; with no more rows than the GPU has
# multiprocessors, more than 512), without a cluster, every row group at least ROWS_PER_KEPT_ROW rows
# for each row its float sums fill (kept_rows: two in 16-bit types, one in float32 and float64, twice
# as many with a bias), on a GPU that takes the cooperative launch. The LayerNorms' 16-bit rows would
# need four kept rows, more than their stages: they keep the workspace. Cases: (rows, vectors a row,
# cap on the row groups): uncapped, rows enough for two kept rows in each of the most row groups the
# backward takes (None: ROWS_PER_KEPT_ROW * 2 rows for each of 8 blocks a multiprocessor, csrc's
# kMaxBlocksPerSM); groups of 37 or 38 rows; groups of exactly ROWS_PER_KEPT_ROW * 2 rows, the fewest
# for two kept rows; one row fewer (the workspace where two rows are kept); too few for one kept row a
# group (the workspace).
ROWS_PER_KEPT_ROW = 8  # csrc/row_norm/cuda.cuh's kRowsPerKeptRow, which this test checks
MOST_GROUPS_PER_SM = 8
KEEP_CASES = [(None, 512, None), (300, 512, 8), (128, 1024, 8), (127, 1024, 8), (63, 1024, 8)]


@CUDA
@pytest.mark.parametrize("rows, vectors, groups", KEEP_CASES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_backward_without_workspace_matches_the_workspace(spec, dtype, rows, vectors, groups, monkeypatch):
    # Without its workspace (its kernel, kKeep, in the profiler's trace) the backward asks the
    # allocator for one tensor fewer than with it (WORKSPACE_VARIABLE=1, where no such kernel runs);
    # it writes grad_x with the same bits and the parameters' gradients (their sums added in another
    # order) within the dtype's tolerance of the float64 reference, with the same bits each time. The
    # staging of these rows takes at most 96 KiB a block.
    if groups is None:
        monkeypatch.delenv(BACKWARD_GROUPS_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(BACKWARD_GROUPS_VARIABLE, str(groups))
    monkeypatch.delenv(SHARED_MEMORY_LIMIT_VARIABLE, raising=False)
    most_groups = MOST_GROUPS_PER_SM * torch.cuda.get_device_properties(0).multi_processor_count
    rows = ROWS_PER_KEPT_ROW * 2 * most_groups if rows is None else rows
    shape = (rows, vectors * 16 // dtype.itemsize)
    xs, params, grad_outs = make_inputs(spec, shape, dtype, "cuda", requires_grad=True)

    def step(workspace):
        monkeypatch.setenv(WORKSPACE_VARIABLE, workspace)
        torch.cuda.synchronize()
        before = torch.cuda.memory_stats()["allocation.all.allocated"]
        outputs = run(spec, xs, params, spec.default_eps)
        grads = torch.autograd.grad(outputs, [*xs, *params], grad_outs)
        torch.cuda.synchronize()
        return torch.cuda.memory_stats()["allocation.all.allocated"] - before, grads

    step("0")  # (anything a first call allocates, out of the counts)
    with_workspace, workspace_grads = step("1")
    without, grads = step("0")
    again = step("0")[1]
    assert not kept_rows_ran(lambda: step("1"))
    ran = kept_rows_ran(lambda: step("0"))
    assert with_workspace - without == (1 if ran else 0)
    # Where it must have run: kept_rows (float sums of 4 bytes, float64's of 8, in rows of the dtype's
    # elements) within the stages (two at least), ROWS_PER_KEPT_ROW rows a group for each, and a GPU
    # whose blocks take the stages (sm_80 and newer give a block 99 KiB or more); where it must not:
    # more kept rows than stages, or too few rows for the capped groups.
    kept = (2 if spec.has_bias else 1) * (2 if dtype.itemsize == 2 else 1)
    enough_rows = rows >= ROWS_PER_KEPT_ROW * kept * (most_groups if groups is None else groups)
    if kept <= 2 and enough_rows and torch.cuda.get_device_capability() >= (8, 0):
        assert ran
    elif kept > 2 or (groups is not None and not enough_rows):
        assert not ran
    for grad, other in zip(grads, again, strict=True):
        assert torch.equal(grad, other)
    for grad, other in zip(grads[: len(xs)], workspace_grads[: len(xs)], strict=True):
        assert torch.equal(grad, other)
    _, expected = reference_outputs(spec, xs, params, grad_outs, spec.default_eps)
    assert_grads_close(grads, expected, gradient_scales(spec, xs, params, grad_outs, spec.default_eps), dtype)


@CUDA
@pytest.mark.parametrize(
    "dtype, n, cluster",
    [
        (torch.float32, 12288, 2),
        (torch.float32, 32768, 4),
        (torch.float32, 65536, 8),
        (torch.bfloat16, 65536, 4),
        (torch.float64, 16384, 4),
        (torch.float32, 12293, 2),  # rows that start at different offsets from a vector boundary
    ],
    ids=str,
)
@pytest.mark.parametrize("limit", [None, 48 * 1024], ids=["staged", "unstaged"])
def test_cluster_blocks_exchange_each_rows_sums(spec, dtype, n, cluster, limit, monkeypatch):
    # Rows split over a cluster of `cluster` blocks (sm_90 and newer): one cluster walks all 37 rows
    # (shifted rows: elements / gcd(elements, n) clusters, so that each one's rows start alike, see
    # backward_groups), its blocks exchanging each row's sums (ClusterExchange in
    # csrc/row_norm/cuda.cuh) in turns that come round every two or three rows (staged in three or
    # two stages; under the limit, not staged).
    # The rows' scales differ, so that sums taken from another row would be far off in every dtype;
    # where the rows start on a vector boundary, a column copied to the same place in every block's
    # slice (its threads x four vectors, as the launch shows) has the same gradient bits in each, as
    # every block combines the same sums in one order.
    skip_without_clusters()
    rows = 37
    monkeypatch.setenv(BACKWARD_GROUPS_VARIABLE, "1")
    if limit is None:
        monkeypatch.delenv(SHARED_MEMORY_LIMIT_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(SHARED_MEMORY_LIMIT_VARIABLE, str(limit))
    xs, params, grad_outs = make_inputs(spec, (rows, n), dtype, "cuda")
    scales = 2.0 ** (torch.arange(rows, device="cuda", dtype=torch.float64) % 9 - 4)
    xs = [(t.double() * scales[:, None]).to(dtype) for t in xs]
    for t in [*xs, *params]:
        t.requires_grad_()
    launches = kernel_launches(lambda: check_inputs(spec, xs, params, grad_outs, dtype))
    # (grid, block, stages) of each backward kernel of clustered rows that ran
    clustered = [
        (grid, block, int(arguments[6]))
        for arguments, grid, block in backward_launches(launches)
        if arguments[8] == "true"  # kClustered
    ]
    elements = 16 // dtype.itemsize  # a 16-byte vector's
    clusters = elements // math.gcd(elements, n)
    assert len(clustered) == 1 and clustered[0][0][0] == clusters * cluster
    (_, block, stages) = clustered[0]
    # Two stages take 256 bytes a thread (x and grad_out, four 16-byte vectors each a stage; with a
    # residual add also grad_residual_out where that fits, else not).
    optin = getattr(torch.cuda.get_device_properties(), "shared_memory_per_block_optin", None)  # torch 2.7+
    if limit is not None:
        assert stages == 0
    elif optin is not None:
        assert (stages > 0) == (256 * block[0] + STATIC_BYTES <= optin)
    if n % elements:
        return
    slice_width = block[0] * 4 * elements
    copies = [5 + r * slice_width for r in range(1, cluster)]
    with torch.no_grad():
        for t in [*xs, *grad_outs]:
            t[:, copies] = t[:, 5:6].clone()
        for p in params:
            p[copies] = p[5].clone()
    grad_x = torch.autograd.grad(run(spec, xs, params, spec.default_eps)[0], xs[0], grad_outs[0])[0]
    for column in copies:
        assert torch.equal(grad_x[:, column], grad_x[:, 5])


@CUDA
@pytest.mark.parametrize(
    "dtype, n, limit, limited",
    [
        # Unlimited: a cluster of 4 blocks a row both ways in bfloat16 (8 for the staged forward with
        # a residual add), of 8 in float32; at 12288 float32 elements only the backward's (of 2).
        # limited: the (forward, backward) clusters under the limit (1: no cluster). Where the
        # forward's registers-held slices on 256 threads a block need more blocks than the limit,
        # it takes their slices on 512 threads: 2 blocks in bfloat16, 4 in float32 (the backward
        # takes 512 threads first).
        (torch.bfloat16, 65536, 1, (1, 1)),
        (torch.bfloat16, 65536, 2, (2, 1)),
        (torch.float32, 65536, 4, (4, 1)),
        (torch.float32, 65536, 1, (1, 1)),
        (torch.float32, 12288, 1, (1, 1)),
        # With a residual add, the staged forward's 8 blocks are refused and its cluster of
        # registers-held slices, 4, taken; without, nothing is above the limit (skipped).
        (torch.bfloat16, 65536, 4, (4, 4)),
    ],
    ids=str,
)
def test_clusters_the_gpu_cannot_place_are_not_launched(spec, dtype, n, limit, limited, monkeypatch):
    # On a GPU or MIG slice whose GPCs have too few multiprocessors for a row's cluster (as the
    # occupancy calculator reports it), which the limit variable makes of this one, the rows take a
    # cluster it places, or kernels without clusters, rather than fail to launch
    # (max_active_clusters in csrc/row_norm/cuda.cuh).
    # Each kernel's cluster is read from its grid: one row group in the backward, a row's blocks in
    # the forward. (The variable refuses clusters by their blocks alone; a refusal that depends on a
    # block's shared memory, which would make the backward stage fewer rows first, is not simulated.)
    skip_without_clusters()
    rows = 6
    monkeypatch.setenv(BACKWARD_GROUPS_VARIABLE, "1")
    monkeypatch.delenv(SHARED_MEMORY_LIMIT_VARIABLE, raising=False)

    def clusters():
        launches = kernel_launches(lambda: check_against_reference(spec, "cuda", dtype, (rows, n)))
        forward = [grid[0] // rows for name, grid, _ in launches if forward_kernels([name])]
        backward = [grid[0] for _, grid, _ in backward_launches(launches)]
        assert len(forward) == 1 and len(backward) == 1
        return forward[0], backward[0]

    monkeypatch.delenv(CLUSTER_LIMIT_VARIABLE, raising=False)
    unlimited = clusters()
    if max(unlimited) <= limit:
        pytest.skip(f"no cluster above {limit} blocks to refuse here: {unlimited}")
    monkeypatch.setenv(CLUSTER_LIMIT_VARIABLE, str(limit))
    assert clusters() == limited
    monkeypatch.setenv(CLUSTER_LIMIT_VARIABLE, "9" * 30)  # above the most (8 blocks): no limit
    assert clusters() == unlimited


@CUDA
@pytest.mark.parametrize(
    "variable, value, message",
    [
        (SHARED_MEMORY_LIMIT_VARIABLE, "99 KiB", "must be a number of bytes, not '99 KiB'"),
        (SHARED_MEMORY_LIMIT_VARIABLE, "-1", "must be a number of bytes, not '-1'"),
        (SHARED_MEMORY_LIMIT_VARIABLE, " 1024", "must be a number of bytes, not ' 1024'"),
        (BACKWARD_GROUPS_VARIABLE, "0", r"must be a number of row groups \(at least 1\), not '0'"),
        (BACKWARD_GROUPS_VARIABLE, "two", r"must be a number of row groups \(at least 1\), not 'two'"),
        (BACKWARD_GROUPS_VARIABLE, "", r"must be a number of row groups \(at least 1\), not ''"),
        (CLUSTER_LIMIT_VARIABLE, "0", r"must be a number of blocks \(at least 1\), not '0'"),
        (CLUSTER_LIMIT_VARIABLE, "8 blocks", r"must be a number of blocks \(at least 1\), not '8 blocks'"),
        (WORKSPACE_VARIABLE, "2", "must be 0 or 1, not '2'"),
        (WORKSPACE_VARIABLE, "yes", "must be 0 or 1, not 'yes'"),
    ],
    ids=str,
)
def test_malformed_test_setting_is_refused(spec, variable, value, message, monkeypatch):
    # float32 rows of 4096 are held in registers at four vectors a thread: a backward that reads the
    # first two variables (the shared memory cap only where a block could stage its rows) and, staged,
    # the workspace's; rows of 65536 would be split over a cluster, whose limit is read where the GPU
    # has clusters.
    shape = (300, 4096)
    if variable == CLUSTER_LIMIT_VARIABLE:
        skip_without_clusters()
        shape = (6, 65536)
    monkeypatch.setenv(variable, value)
    with pytest.raises(RuntimeError, match=f"{variable} {message}"):
        check_against_reference(spec, "cuda", torch.float32, shape)


@CUDA
@pytest.mark.parametrize("variable", [SHARED_MEMORY_LIMIT_VARIABLE, BACKWARD_GROUPS_VARIABLE])
# Rows staged at 512 threads a row, one block a multiprocessor (fewer row groups than the cap's
# default); short rows, 16 a block, as many row groups as the default cap (8 a multiprocessor).
@pytest.mark.parametrize("shape", [(300, 8192), (40000, 24)], ids=str)
@pytest.mark.parametrize(
    "value", [str(2**40), str(2**63), str(2**64 + 1), "9" * 30], ids=lambda value: f"{len(value)}_digits"
)
def test_test_setting_above_the_most_caps_nothing(spec, variable, value, shape, monkeypatch):
    # Caps beyond what the GPU allows, up to numbers past 64 bits, leave the kernels as they are
    # unset: the same backward kernels (staged or not) on the same grid, whose parameter gradients
    # (sums over the row groups in a fixed order) then have the same bits; float32, so that no
    # rounding to a 16-bit type could hide another grid's order.
    monkeypatch.delenv(SHARED_MEMORY_LIMIT_VARIABLE, raising=False)
    monkeypatch.delenv(BACKWARD_GROUPS_VARIABLE, raising=False)
    xs, params, grad_outs = make_inputs(spec, shape, torch.float32, "cuda", requires_grad=True)

    def gradients():
        grads = []

        def backward():
            outputs = run(spec, xs, params, spec.default_eps)
            grads.extend(torch.autograd.grad(outputs, [*xs, *params], grad_outs))

        return backward_kernel_stages(backward), grads

    expected_stages, expected = gradients()
    monkeypatch.setenv(variable, value)
    stages, grads = gradients()
    assert stages == expected_stages
    for index, (grad, want) in enumerate(zip(grads, expected, strict=True)):
        assert torch.equal(grad, want), f"gradient {index} differs with {variable}={value}"


@CUDA
def test_more_than_2_31_elements(spec):
    # 64-bit indexing: x.numel() > 2**31 in bfloat16. Every value of y and grad_x is checked against
    # the reference in slices of rows, and the parameters' gradients against the sum of the slices'.
    rows, cols = 2**31 // 4096 + 3, 4096
    free, _ = torch.cuda.mem_get_info()
    need = 40 if spec.residual_add else 24  # GiB: 4 GiB a tensor, twice the inputs and outputs with the add
    if free < need * 2**30:
        pytest.skip(f"needs {need} GiB of free GPU memory")
    _, params, _ = make_inputs(spec, (1, cols), torch.bfloat16, "cuda")
    count = 2 if spec.residual_add else 1
    xs = [
        torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16).mul_(2).add_(0.5) for _ in range(count)
    ]
    grad_outs = [torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16) for _ in range(count)]
    assert xs[0].numel() > 2**31
    eps = spec.default_eps
    outputs = run(spec, xs, params, eps)
    grads = spec.backward_op(*backward_arguments(spec, xs, grad_outs), *params, eps)
    param_sums = [torch.zeros(cols, dtype=torch.float64, device="cuda") for _ in params]
    for start in range(0, rows, 65536):
        part = slice(start, min(start + 65536, rows))
        xs_part, grad_outs_part = [t[part] for t in xs], [g[part] for g in grad_outs]
        expected_outputs, expected_grads = reference_outputs(spec, xs_part, params, grad_outs_part, eps)
        for output, expected in zip(outputs, expected_outputs, strict=True):
            assert_close(output[part], expected, torch.bfloat16)
        scale = gradient_scales(spec, xs_part, params, grad_outs_part, eps)[0]
        assert_close(grads[0][part], expected_grads[0], torch.bfloat16, scale)
        for total, grad in zip(param_sums, expected_grads[count:], strict=True):
            total += grad
        del expected_outputs, expected_grads
    for grad, expected in zip(grads[1:], param_sums, strict=True):
        # a float32 sum over 2^19 rows, rounded to bfloat16
        assert_close(grad, expected, torch.bfloat16)


@pytest.mark.parametrize("eps", [0.0, 1e-2])
@pytest.mark.parametrize("device", DEVICES)
def test_eps_is_used(spec, device, eps):
    # Rows of small values, where eps dominates the variance: another eps gives another result.
    xs, params, grad_outs = make_inputs(spec, (16, 64), torch.float64, device)
    xs = [x * 1e-2 for x in xs]
    expected, _ = reference_outputs(spec, xs, params, grad_outs, eps)
    assert_close(run(spec, xs, params, eps)[0], expected[0], torch.float64)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_rows_of_one_large_element(spec, device, dtype):
    # x_hat = (x - mean) * rstd must subtract first: x * rstd - mean * rstd keeps only the rounding of
    # two products that cancel, and at N = 1 (rstd = 1 / sqrt(eps)) that rounding of values in the
    # thousands is larger than every dtype's tolerance. LayerNorm's x_hat is then exactly 0: the output
    # is the bias and grad_weight is 0. RMSNorm's output is about weight * sign(x).
    eps = spec.default_eps
    xs, params, grad_outs = make_inputs(spec, (64, 1), dtype, device)
    xs = [(1000 * x.double()).to(dtype) for x in xs]
    params = [p.requires_grad_() for p in params]
    outputs = run(spec, xs, params, eps)
    expected, _ = reference_outputs(spec, xs, params, grad_outs, eps)
    for output, reference in zip(outputs, expected, strict=True):
        assert_close(output, reference, dtype)
    if spec.norm == "layer_norm":
        grad_weight = torch.autograd.grad(outputs, params[0], grad_outs)[0]
        assert torch.equal(grad_weight, torch.zeros_like(grad_weight))


# Rows whose first element is 1000 among values of mean 0.5 and standard deviation 2 (about 500 of them
# away), in every other row: an LLM's "massive activations" (a few channels far larger than the rest) in
# the first column, or in the first two (far_columns). The CUDA backward takes LayerNorm's sums about
# the median of a row's first three elements, far where two of them are, and sums such rows again about
# their mean (backward_shift and far_row_sums in csrc/row_norm/cuda.cuh); the CUDA forward takes its
# sums about the first element, and the CPU loops about the mean of the first vector, which the far
# column moves far from the row's mean too (kCpuFarShift in csrc/row_norm/cpu.h). Summed once about the
# first element, LayerNorm's grad_x would exceed this test's bound 2.5 to 301 times at N = 4095, 65536
# and 300001 and at 2000 x 4096, but only 1.0 to 1.8 times at 16 x 4096 (emulated in float32 on the CPU
# with these inputs and bound: the example's benchmarks/results/runs/g2/far_first_margin.txt;
# grad_weight is checked too). Rows of N <= 96 lose too few digits to tell: at N = 32 and 64 they check
# the second look where it differs between the rows of a warp, which decides as one (in float32 the
# backward lays rows of 32, 64 and 96 elements 4, 2 and 1 a warp). The wider shapes aim at each of the
# CUDA backward's kernels. This test does not check which kernel or layout ran.
FAR_FIRST_SHAPES = [
    (64, 32),  # 4 rows a warp
    (63, 64),  # 2 rows a warp, an odd number of rows
    (64, 96),  # a row a warp
    (16, 4096),  # a row a block in registers
    (2000, 4096),  # rows staged in shared memory
    (4, 65536),  # a row split over a cluster
    (3, 300001),  # rows wider than registers and clusters hold
    (37, 4095),  # rows that start off a vector boundary
]


def far_first_inputs(spec, shape, device, dtype=torch.float32, param_dtype=None, far_columns=1):
    """make_inputs' inputs, every other row's first `far_columns` elements of x set to 1000, requiring
    grad."""
    xs, params, grad_outs = make_inputs(spec, shape, dtype, device, param_dtype)
    xs[0][::2, :far_columns] = 1000.0
    for t in [*xs, *params]:
        t.requires_grad_()
    return xs, params, grad_outs


@pytest.mark.parametrize("far_columns", [1, 2])
@pytest.mark.parametrize("shape", FAR_FIRST_SHAPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_rows_whose_first_element_lies_far_from_the_others(spec, device, shape, far_columns):
    xs, params, grad_outs = far_first_inputs(spec, shape, device, far_columns=far_columns)
    eps = spec.default_eps
    outputs = run(spec, xs, params, eps)
    grads = torch.autograd.grad(outputs, [*xs, *params], grad_outs)
    expected_outputs, expected_grads = reference_outputs(spec, xs, params, grad_outs, eps)
    # Each within float32's tolerance of 10 times its reference's RMS (2e-4 of it) and of each element:
    # the far column's values and terms are up to 370 times the others' (at N = 300001), and their
    # float32 rounding alone came to 3.5e-4 of the RMS in the residual-add LayerNorm's weight gradient
    # on the CPU (the example's benchmarks/results/runs/g/g1/). Lost digits move every element of a row.
    for actual, expected in zip([*outputs, *grads], [*expected_outputs, *expected_grads], strict=True):
        assert_close(actual, expected, torch.float32, scale=10 * expected.pow(2).mean().sqrt().item())


@pytest.mark.parametrize(
    ("moved", "distance", "bound"),
    [
        ("first element", 0.0, 2),
        ("first element", 2.0, 2),
        ("first element", 3.9, 2),
        ("first element", 8.0, 2),
        ("first 16 elements", 1.9, 6),
        ("first 16 elements", 2.1, 2),
        ("first 16 elements", 3.9, 2),
    ],
)
def test_cpu_float32_keeps_torch_s_accuracy_wherever_the_shift_lies(spec, moved, distance, bound):
    # LayerNorm's CPU loops sum a row about the mean of its first vector (16 or 8 float32 elements), and
    # again about its mean where that lies more than two standard deviations off (kCpuFarShift in
    # csrc/row_norm/cpu.h): float32 y and grad_x within `bound` times the mean error of torch's own CPU
    # LayerNorm against float64. Where the first element alone lies off, the shift lies a sixteenth or
    # an eighth as far: within twice (about the first element, as before, y came to 17 times torch's
    # error where that element lay 3.9 standard deviations off: the example's
    # benchmarks/results/cpu/labs/shift_accuracy.txt). Where the whole first vector does, just inside
    # the bound the variance has up to 5 times a sum about the mean's error (y 4.8 times torch's at 1.9
    # in that lab's second table), and past it the row is summed again. The CUDA kernels still sum about
    # the first element (csrc/row_norm/statistics.h): this is the CPU loops' property.
    if spec.norm != "layer_norm":
        pytest.skip("RMSNorm's sums are taken about zero")
    rows, n = 512, 1024
    x = torch.randn(rows, n, dtype=torch.float64)
    x = (x - x.mean(1, keepdim=True)) / x.std(1, keepdim=True)
    x[:, : 1 if moved == "first element" else 16] = distance
    weight, bias = 1 + 0.1 * torch.randn(n, dtype=torch.float64), 0.1 * torch.randn(n, dtype=torch.float64)
    grad_out = torch.randn(rows, n, dtype=torch.float64)

    def y_and_grad_x(f, dtype):
        inputs = x.to(dtype).requires_grad_()
        y = f(inputs, weight.to(dtype), bias.to(dtype))
        return y.detach().double(), torch.autograd.grad(y, inputs, grad_out.to(dtype))[0].double()

    def ours(inputs, w, b):
        xs = [inputs] + ([torch.zeros_like(inputs)] if spec.residual_add else [])
        return run(spec, xs, (w, b), spec.default_eps)[0]

    def torch_s(inputs, w, b):
        return torch.nn.functional.layer_norm(inputs, (n,), w, b, spec.default_eps)

    exact = y_and_grad_x(torch_s, torch.float64)
    for name, actual, theirs in zip(
        ("y", "grad_x"), y_and_grad_x(ours, torch.float32), y_and_grad_x(torch_s, torch.float32), strict=True
    ):
        expected = exact[0] if name == "y" else exact[1]

        def error(t, expected=expected):
            return ((t - expected).abs().mean() / expected.abs().mean()).item()

        assert error(actual) <= bound * error(theirs), (name, error(actual), error(theirs))


@pytest.mark.parametrize("far_columns", [1, 2])
@pytest.mark.parametrize("device", DEVICES)
def test_the_mean_of_rows_read_in_several_passes_whose_first_element_lies_far(spec, device, far_columns):
    # test_rows_whose_first_element_lies_far_from_the_others' rows at 3 x 300001, which the CUDA forward
    # reads in several passes (wider than registers and clusters hold), drawn 20 times: seeds 0 to 19,
    # the draws of lab AE (the RMSNorm example's benchmarks/results/runs/ae/margin_table.txt, H200).
    # There the forward whose mean combined every pass's about the far origin put y up to 1.18 and 1.19
    # times that test's allowance off (LayerNorm, after a residual add, one far column; 0.97 and 0.95
    # with two), a draw failing it now and then; mended from each thread's sums about its own first
    # element (forward_rows in csrc/row_norm/cuda.cuh), 0.08 to 0.15 (lab AE, and call AG's
    # runs/ag/margin/ on the mend as it landed). This test allows half. The CPU loops, which read a
    # row once and sum it again about its mean, take 4 of the draws (the CPU's random numbers differ
    # from CUDA's: they are other draws).
    if spec.norm != "layer_norm":
        pytest.skip("RMSNorm's sums are taken about zero")
    tolerance = TOLERANCES[torch.float32]
    eps = spec.default_eps
    for seed in range(20 if device == "cuda" else 4):
        with torch.random.fork_rng(devices=[torch.cuda.current_device()] if device == "cuda" else []):
            torch.manual_seed(seed)
            xs, params, _ = far_first_inputs(spec, (3, 300001), device, far_columns=far_columns)
        with torch.no_grad():
            outputs = run(spec, xs, params, eps)
        expected_outputs, _ = reference_outputs(spec, xs, params, None, eps)
        for actual, expected in zip(outputs, expected_outputs, strict=True):
            allowed = tolerance * (10 * expected.pow(2).mean().sqrt() + expected.abs())  # that test's
            ratio = ((actual.double() - expected).abs() / allowed).max().item()
            assert ratio <= 0.5, (seed, ratio)


@pytest.mark.parametrize("far_columns", [1, 2])
@pytest.mark.parametrize("far", [1e4, 1e6])
@pytest.mark.parametrize("device", DEVICES)
def test_the_backward_of_rows_whose_first_element_lies_far_keeps_float32s_digits(
    spec, device, far, far_columns
):
    # LayerNorm's backward takes the sums its formula needs, sum(d w dy) and sum(w dy) with d = x - shift
    # (the CPU loops' shift x[0], the CUDA kernels' the median of x[0], x[1] and x[2], far where the
    # first two columns are), in the read that gives the row's statistics. Where the shift lies far from
    # the mean, sum(d w dy) - mean(d) sum(w dy) cancels, and those sums must be taken again about the
    # mean (the CPU loops take them in that read since this test, the CUDA kernels before). Every
    # gradient within 2e-5 of its largest element: tighter than
    # test_rows_whose_first_element_lies_far_from_the_others' tolerance, which the CPU loops without
    # that second look met, and this test's rows failed. grad_weight's
    # scale is instead gradient_scales' (the largest sum over the rows of its terms' magnitudes): the
    # far column's terms (x_hat about 316) cancel where the rows' dy do, and float32 keeps only their
    # own rounding (drawn 400 times on the CPU with one far column, grad_weight came out up to 2.03
    # times 2e-5 of its largest element off, in 3 draws, and at most 0.114 times 2e-5 of that scale:
    # runs/ad/digits_bound.txt of the RMSNorm example's benchmarks/results/; with these two far
    # columns, 400 draws of each far value: at most 0.108 times 2e-5 of that scale, and 0.417 times
    # 2e-5 of its largest element, runs/ah/digits_bound_two.txt).
    if spec.norm != "layer_norm":
        pytest.skip("RMSNorm's sums are taken about zero")
    xs, params, grad_outs = make_inputs(spec, (4, 100003), torch.float32, device)
    xs[0][:, :far_columns] = far
    for t in [*xs, *params]:
        t.requires_grad_()
    eps = spec.default_eps
    grads = torch.autograd.grad(run(spec, xs, params, eps), [*xs, *params], grad_outs)
    _, expected_grads = reference_outputs(spec, xs, params, grad_outs, eps)
    scales = [expected.abs().max().item() for expected in expected_grads]
    scales[len(xs)] = gradient_scales(spec, xs, params, grad_outs, eps)[len(xs)]  # grad_weight
    for actual, expected, scale in zip(grads, expected_grads, scales, strict=True):
        error = (actual.double() - expected).abs().max().item()
        assert error <= 2e-5 * scale, (error, scale)


@pytest.mark.parametrize("first", ["random", "far"])
@pytest.mark.parametrize("shape", [(64, 32), (8, 4096), (6, 32768), (3, 100003)], ids=str)
def test_the_cpu_backward_of_rows_whose_sums_overflow(spec, shape, first):
    # The backward's one read of a row sums d w dy, d = x - shift (the mean of the first vector; x for
    # RMSNorm), unscaled: in the even rows, x of 1e15 and grad_out of 1e24, those sums overflow float32
    # where the sums of x_hat w dy do not, and the CPU loops then take them again as x_hat w dy; "far":
    # the first element 2e18 too, which puts LayerNorm's shift far from the row (its statistics then
    # taken again about the mean; at 32768 and 100003 columns its sums of d^2 overflow as well). The odd
    # rows, x of 1 and grad_out of 1e9, whose grad_x is as large as the even rows' (rstd w dy), lie
    # beside them. grad_outs[0] only, so that a residual's gradient, added to grad_x, hides nothing.
    # float32, within its tolerance (check_inputs), where the first sums give NaN. (The CUDA kernels
    # take such sums unscaled too, and gave NaN here: lab AB-O in the RMSNorm example's
    # benchmarks/results/runs/ab/overflow/, on the kernels that summed about x[0].)
    xs, params, grad_outs = make_inputs(spec, shape, torch.float32, "cpu")
    with torch.no_grad():
        xs[0][::2].mul_(1e15)
        if first == "far":
            xs[0][::2, 0] = 2e18
        grad_outs[0][::2].mul_(1e24)
        grad_outs[0][1::2].mul_(1e9)
    for t in [*xs, *params]:
        t.requires_grad_()
    check_inputs(spec, xs, params, grad_outs, torch.float32)


@pytest.mark.parametrize("far_columns", [1, 2])
@pytest.mark.parametrize("deviations", [3.9, 4.1, 6.0, 50.0])
@pytest.mark.parametrize("shape", [(300, 4096), (6, 32768), (3, 100003)], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_rows_far_from_zero_whose_first_element_lies_some_deviations_out(
    spec, device, shape, deviations, far_columns
):
    # Rows of mean 1000 and standard deviation 1, the first `far_columns` elements of every other row
    # exactly `deviations` out (the others exactly at the mean): on either side of the point (4) past
    # which the CUDA kernels sum a row again about its mean (the CPU loops sum about the mean of the
    # first vector, which these elements move by a sixteenth or an eighth of theirs per column: past
    # their bound, kCpuFarShift, in the 50-deviation rows), where the second sums must keep the digits
    # that a mean far from zero takes (summed about zero, float32 y came out 6e-5 of its largest
    # element off at 32768 x 4.1). With two, the CUDA backward's shift (the median of the first three
    # elements) lies as far out, so that its second sums run too; RMSNorm, whose sums are taken about
    # zero, takes one. float32, within its tolerance (check_inputs). The rows are the same on every
    # run (a generator of their own), so that the cases land where they say. On CUDA the shapes take
    # a row in registers, rows staged in shared memory over a cluster (sm_90 on) and shifted rows of
    # several passes or a cluster. The residual-add LayerNorm's forward, its means combined as means
    # of x itself, came out 1.6 to 3.0 times this tolerance off at 6 x 32768 and 3 x 100003 but for
    # the 50-deviation rows (see row_origin in csrc/row_norm/statistics.h; 300 x 4096 and LayerNorm
    # without the add were not run on those kernels).
    if far_columns > 1 and spec.norm != "layer_norm":
        pytest.skip("RMSNorm's sums are taken about zero")
    xs, params, grad_outs = make_inputs(spec, shape, torch.float32, device)
    generator = torch.Generator().manual_seed(11)
    for i, t in enumerate(xs):
        noise = torch.randn(shape, generator=generator) / len(xs) ** 0.5
        t.copy_((1000.0 if i == 0 else 0.0) + noise)
        t[:, :far_columns] = 1000.0 if i == 0 else 0.0
    xs[0][::2, :far_columns] += deviations
    for t in [*xs, *params]:
        t.requires_grad_()
    check_inputs(spec, xs, params, grad_outs, torch.float32)


# Such rows in the other dtypes, and in a 16-bit x with float32 parameters (what autocast passes),
# each within its dtype's tolerance of the reference (check_inputs), in a row a block in registers
# and, at 4 x 65536, a row split over a cluster on sm_90 and newer (float64's rows there take the
# workspace's passes). The digits the second look saves lie within these bounds (the 16-bit types'
# statistics are float32; the float32 test above checks them), so these fail where a dtype's second
# look gives wrong results, not where it is skipped. With two far columns the CUDA backward's shift is
# far too (the median of the first three elements).
@pytest.mark.parametrize("far_columns", [1, 2])
@pytest.mark.parametrize("shape", [(16, 4096), (4, 65536)], ids=str)
@pytest.mark.parametrize(
    ("dtype", "param_dtype"),
    [(torch.float64, None), (torch.float16, None), (torch.bfloat16, None), (torch.bfloat16, torch.float32)],
    ids=["float64", "float16", "bfloat16", "bfloat16-float32"],
)
@pytest.mark.parametrize("device", DEVICES)
def test_rows_whose_first_element_lies_far_in_the_other_dtypes(
    spec, device, dtype, param_dtype, shape, far_columns
):
    check_inputs(spec, *far_first_inputs(spec, shape, device, dtype, param_dtype, far_columns), dtype)


def test_default_eps_is_the_schemas(spec):
    schema = spec.forward_op._schema
    assert float(schema.arguments[-1].default_value) == spec.default_eps
    xs, params, _ = make_inputs(spec, (8, 32), torch.float64, "cpu")
    assert torch.equal(run(spec, xs, params)[0], run(spec, xs, params, spec.default_eps)[0])


@pytest.mark.parametrize("device", DEVICES)
def test_gradcheck_float64(spec, device):
    xs, params, _ = make_inputs(spec, (6, 13), torch.float64, device, requires_grad=True)
    assert torch.autograd.gradcheck(lambda *t: spec.function(*t, 1e-3), (*xs, *params))


@pytest.mark.parametrize("device", DEVICES)
def test_double_backward_is_refused(spec, device):
    xs, params, grad_outs = make_inputs(spec, (4, 16), torch.float64, device, requires_grad=True)
    (grad_x,) = torch.autograd.grad(run(spec, xs, params), xs[0], grad_outs, create_graph=True)
    with pytest.raises(NotImplementedError, match=f"{spec.op_name}: double backward is not supported"):
        grad_x.sum().backward()


@pytest.mark.parametrize("device", DEVICES)
def test_forward_mode_ad_is_refused(spec, device):
    xs, params, _ = make_inputs(spec, (4, 16), torch.float64, device)
    with fwAD.dual_level():
        dual = fwAD.make_dual(xs[0], torch.randn_like(xs[0]))
        with pytest.raises(NotImplementedError, match=f"{spec.op_name}: forward-mode AD .* is not supported"):
            spec.function(dual, *xs[1:], *params)


@pytest.mark.parametrize("device", DEVICES)
def test_torch_func_grad_goes_only_through_inputs_it_does_not_differentiate(spec, device):
    # As the README says: PyTorch refuses the C++ autograd formula inside torch.func.grad (and vjp,
    # jacrev), with its own message; a call on inputs the transform does not differentiate works.
    xs, params, _ = make_inputs(spec, (4, 16), torch.float64, device)
    with pytest.raises(RuntimeError, match="functorch transforms"):
        torch.func.grad(lambda x: outputs_of(spec, spec.function(x, *xs[1:], *params))[0].sum())(xs[0])
    scale = torch.randn(4, 16, dtype=torch.float64, device=device)
    grad = torch.func.grad(lambda s: (s * outputs_of(spec, spec.function(*xs, *params))[0]).sum())(scale)
    expected = outputs_of(spec, spec.reference(*xs, *params, spec.default_eps))[0]
    assert_close(grad, expected, torch.float64)


# Where vmap's dimension lies in the activations (0, 1 or last of the tensors given), and whether the
# residual is shared by the batch or the parameters are one per sample.
VMAP_CASES = ["first", "second", "last", "shared residual", "parameters per sample"]


@pytest.mark.parametrize("case", VMAP_CASES)
@pytest.mark.parametrize("device", DEVICES)
def test_vmap_gives_each_sample_its_outputs(spec, device, case):
    # The operator's batching rule (families/batching.py): one call for the batch where only the
    # activations are batched, one call per sample where a parameter is. The fallback is off.
    if case == "shared residual" and not spec.residual_add:
        pytest.skip("no residual")
    batch = 3
    xs, params, _ = make_inputs(spec, (batch, 5, 33), torch.float64, device)
    if case == "shared residual":
        xs[1] = xs[1][0]
    if case == "parameters per sample":
        params = [p + 0.25 * torch.randn(batch, *p.shape, dtype=p.dtype, device=device) for p in params]
    x_dims = [None if t.dim() == 2 else 0 for t in xs]
    where = {"second": 1, "last": 2}.get(case, 0)
    given = [t if dim is None else t.movedim(0, where) for t, dim in zip(xs, x_dims, strict=True)]
    dims = (
        *[None if dim is None else where for dim in x_dims],
        *[0 if p.dim() == 2 else None for p in params],
    )
    with without_vmap_fallback():
        outputs = outputs_of(spec, torch.func.vmap(spec.function, in_dims=dims)(*given, *params))
    for i in range(batch):
        sample = [t if dim is None else t[i] for t, dim in zip(xs, x_dims, strict=True)]
        expected, _ = reference_outputs(
            spec, sample, [p[i] if p.dim() == 2 else p for p in params], None, spec.default_eps
        )
        for output, want in zip(outputs, expected, strict=True):
            assert_close(output[i], want, torch.float64)


@pytest.mark.parametrize("device", DEVICES)
def test_vmap_over_the_gradients_of_outputs(spec, device):
    # vmap over torch.autograd.grad's grad_outputs runs the backward operator under vmap: its rule
    # gives each sample its parameter gradients. (torch.autograd.grad(..., is_grads_batched=True)
    # takes PyTorch's older vmap, which has no rules: its per-sample fallback does that.)
    batch = 3
    xs, params, _ = make_inputs(spec, (5, 33), torch.float64, device, requires_grad=True)
    outputs = run(spec, xs, params)
    grad_outs = [torch.randn(batch, *o.shape, dtype=o.dtype, device=device) for o in outputs]
    inputs = [*xs, *params]

    def gradients(*grads):
        return torch.autograd.grad(outputs, inputs, grads, retain_graph=True)

    with without_vmap_fallback():
        grads = torch.func.vmap(gradients)(*grad_outs)
    for i in range(batch):
        _, expected = reference_outputs(spec, xs, params, [g[i] for g in grad_outs], spec.default_eps)
        for grad, want in zip(grads, expected, strict=True):
            assert_close(grad[i], want, torch.float64)


@pytest.mark.parametrize("device", DEVICES)
def test_gradients_through_vmap(spec, device):
    # A call under vmap records the autograd graph as a call outside it does.
    xs, params, grad_outs = make_inputs(spec, (3, 5, 33), torch.float64, device, requires_grad=True)
    dims = (*[0] * len(xs), *[None] * len(params))
    with without_vmap_fallback():
        outputs = outputs_of(spec, torch.func.vmap(spec.function, in_dims=dims)(*xs, *params))
        grads = torch.autograd.grad(outputs, [*xs, *params], grad_outs)
    expected_outputs, expected_grads = reference_outputs(spec, xs, params, grad_outs, spec.default_eps)
    for actual, want in zip([*outputs, *grads], [*expected_outputs, *expected_grads], strict=True):
        assert_close(actual, want, torch.float64)


@pytest.mark.parametrize("device", DEVICES)
def test_vmap_over_no_samples(spec, device):
    # A batch of none: empty outputs of each sample's shape, by either path of the rule, whose
    # gradients are zeros.
    xs, params, _ = make_inputs(spec, (0, 5, 33), torch.float64, device, requires_grad=True)
    for per_sample in (False, True):
        given = [p.detach().expand(0, *p.shape).requires_grad_() for p in params] if per_sample else params
        dims = (*[0] * len(xs), *[0 if per_sample else None] * len(params))
        with without_vmap_fallback():
            outputs = outputs_of(spec, torch.func.vmap(spec.function, in_dims=dims)(*xs, *given))
        assert [(o.shape, o.dtype) for o in outputs] == [((0, 5, 33), torch.float64)] * len(outputs)
        grads = torch.autograd.grad(sum(o.sum() for o in outputs), [*xs, *given])
        assert all(g.shape == t.shape and not g.any() for g, t in zip(grads, [*xs, *given], strict=True))


@pytest.mark.parametrize("device", DEVICES)
def test_vmap_calls_the_operator_once_for_a_batch_of_activations(spec, device):
    # One call for the batch where only the activations are batched; one a sample where a parameter
    # is (each counted beside vmap's own call).
    batch = 4
    xs, params, _ = make_inputs(spec, (batch, 5, 33), torch.float64, device)
    shared = torch.func.vmap(spec.function, in_dims=(*[0] * len(xs), *[None] * len(params)))
    assert calls_of(spec.name, shared, *xs, *params) == 2
    per_sample = [p.expand(batch, *p.shape) for p in params]
    each = torch.func.vmap(spec.function, in_dims=(*[0] * len(xs), *[0] * len(params)))
    assert calls_of(spec.name, each, *xs, *per_sample) == 1 + batch


@pytest.mark.parametrize("device", DEVICES)
def test_vmap_refuses_a_bad_input_with_a_sample_s_message(spec, device):
    # The one call for the batch would name the batch's shapes in the residual's message; the rule
    # gives the message a call outside vmap gives.
    if not spec.residual_add:
        pytest.skip("no residual: the other messages name no shape of x")
    xs, params, _ = make_inputs(spec, (3, 5, 33), torch.float64, device)
    xs[1] = xs[1][..., :32]
    with pytest.raises(ValueError) as outside:
        spec.function(xs[0][0], xs[1][0], *params)
    dims = (*[0] * len(xs), *[None] * len(params))
    with without_vmap_fallback(), pytest.raises(ValueError) as under:
        torch.func.vmap(spec.function, in_dims=dims)(*xs, *params)
    assert str(under.value) == str(outside.value)


@pytest.mark.parametrize("device", DEVICES)
def test_vmap_refuses_samples_of_no_dimension(spec, device):
    # As outside vmap: a sample of x with no dimension is refused. One call for the batch would take
    # the samples for a row, which parameters of the batch's size would then normalize silently.
    xs, params, _ = make_inputs(spec, (4,), torch.float64, device)
    dims = (*[0] * len(xs), *[None] * len(params))
    with without_vmap_fallback(), pytest.raises(ValueError, match="x must have at least 1 dimension"):
        torch.func.vmap(spec.function, in_dims=dims)(*xs, *params)


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("param_dtype", [None, torch.float32], ids=["same", "float32"])
@pytest.mark.parametrize("device", DEVICES)
def test_opcheck(spec, device, param_dtype, requires_grad):
    xs, params, grad_outs = make_inputs(spec, (8, 40), torch.bfloat16, device, param_dtype, requires_grad)
    torch.library.opcheck(spec.forward_op, (*xs, *params, spec.default_eps))
    backward = backward_arguments(spec, xs, grad_outs)
    torch.library.opcheck(spec.backward_op, (*backward, *[p.detach() for p in params], 1e-3))
    if spec.residual_add:  # grad_residual_out is optional
        backward[1] = None
        torch.library.opcheck(spec.backward_op, (*backward, *[p.detach() for p in params], 1e-3))


@pytest.mark.parametrize("device", DEVICES)
def test_torch_compile_fullgraph(spec, device):
    torch._dynamo.reset()
    layer = spec.layer(64, device=device)
    compiled = torch.compile(layer, fullgraph=True)
    xs = [torch.randn(8, 64, device=device, requires_grad=True) for _ in range(2 if spec.residual_add else 1)]
    outputs, expected = outputs_of(spec, compiled(*xs)), outputs_of(spec, layer(*xs))
    for output, reference in zip(outputs, expected, strict=True):
        torch.testing.assert_close(output, reference)
    grads = torch.autograd.grad([o.sum() for o in outputs], xs)
    for grad, reference in zip(grads, torch.autograd.grad([o.sum() for o in expected], xs), strict=True):
        torch.testing.assert_close(grad, reference)


def test_torch_compile_refuses_a_bad_input_while_tracing(spec):
    xs, params, _ = make_inputs(spec, (4, 8), torch.float32, "cpu", param_dtype=torch.float64)
    assert_refused_while_tracing(spec.function, *xs, *params)


@pytest.mark.parametrize("dtype", HALF_DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_autocast_training_step(spec, device, dtype):
    # Linear then the norm layer under autocast: the layer takes the low-precision activation and its
    # float32 parameters, returns the activation's dtype, and its parameters get float32 gradients
    # that agree with the float64 reference.
    torch.manual_seed(0)
    linear = nn.Linear(64, 96, bias=False, device=device)
    layer = spec.layer(96, device=device)
    perturb(layer)
    x = torch.randn(32, 64, device=device)
    # With a residual add: a residual stream in the autocast dtype, as a model run in it keeps one.
    residual = [torch.randn(32, 96, device=device).to(dtype)] if spec.residual_add else []
    with torch.autocast(device, dtype=dtype):
        h = linear(x)
        outputs = outputs_of(spec, layer(h, *residual))
    assert h.dtype == dtype and all(o.dtype == dtype for o in outputs)
    grad_outs = [torch.randn_like(o) for o in outputs]
    params = list(layer.parameters())
    grads = torch.autograd.grad(outputs, params, grad_outs)
    assert all(g.dtype == torch.float32 for g in grads)
    eps = layer_eps(layer, dtype)
    xs = [h.detach(), *residual]
    expected_outputs, expected = reference_outputs(spec, xs, params, grad_outs, eps)
    for output, reference in zip(outputs, expected_outputs, strict=True):
        assert_close(output, reference, dtype)
    for grad, reference in zip(grads, expected[len(xs) :], strict=True):
        assert_close(grad, reference, dtype)


@pytest.mark.parametrize("device", DEVICES)
def test_non_contiguous_inputs_are_accepted(spec, device):
    xs, params, grad_outs = make_inputs(spec, (40, 64), torch.float32, device)
    xs_t = [x.t().contiguous().t().requires_grad_() for x in xs]  # the same values, column-major
    # The parameters: every other element of a buffer twice their size.
    params = [torch.stack([p, torch.randn_like(p)], dim=1)[:, 0].requires_grad_() for p in params]
    assert not any(p.is_contiguous() for p in params)
    grad_outs_t = [g.t().contiguous().t() for g in grad_outs]
    expected_outputs, expected_grads = reference_outputs(spec, xs_t, params, grad_outs, spec.default_eps)
    outputs = run(spec, xs_t, params)
    for output, expected in zip(outputs, expected_outputs, strict=True):
        assert_close(output, expected, torch.float32)
    grads = torch.autograd.grad(outputs, [*xs_t, *params], grad_outs_t)
    for grad, expected in zip(grads, expected_grads, strict=True):
        assert_close(grad, expected, torch.float32)


@pytest.mark.parametrize("shape", [(0, 8), (3, 0), (0,), (2, 0, 5)], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_empty_tensors_give_empty_results(spec, device, shape):
    xs, params, grad_outs = make_inputs(spec, shape, torch.float32, device, requires_grad=True)
    outputs = run(spec, xs, params)
    assert all(o.shape == xs[0].shape for o in outputs)
    grads = torch.autograd.grad(outputs, [*xs, *params], grad_outs, allow_unused=True)
    assert all(g.shape == xs[0].shape for g in grads[: len(xs)])
    for grad, p in zip(grads[len(xs) :], params, strict=True):
        assert torch.equal(grad, torch.zeros_like(p))  # a sum over no rows


@pytest.mark.parametrize("shape", [(4096, 96), (300, 4097), (6, 65536)], ids=str)
@pytest.mark.parametrize("param_dtype", [None, torch.float32], ids=["same", "float32"])
@pytest.mark.parametrize("device", DEVICES)
def test_backward_is_deterministic(spec, device, param_dtype, shape):
    xs, params, grad_outs = make_inputs(spec, shape, torch.bfloat16, device, param_dtype)
    backward = backward_arguments(spec, xs, grad_outs)
    first = spec.backward_op(*backward, *params, spec.default_eps)
    for _ in range(3):
        again = spec.backward_op(
            *[t.clone() for t in backward], *[p.clone() for p in params], spec.default_eps
        )
        assert all(torch.equal(a, b) for a, b in zip(first, again, strict=True))


@pytest.mark.parametrize("shape", [(4099, 96), (40, 9000)], ids=str)
def test_cpu_parameter_grads_do_not_depend_on_the_thread_count(spec, shape):
    xs, params, grad_outs = make_inputs(spec, shape, torch.float32, "cpu")
    backward = backward_arguments(spec, xs, grad_outs)
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one = spec.backward_op(*backward, *params, spec.default_eps)
        torch.set_num_threads(max(2, threads))
        several = spec.backward_op(*backward, *params, spec.default_eps)
    finally:
        torch.set_num_threads(threads)
    assert all(torch.equal(a, b) for a, b in zip(one, several, strict=True))


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
def test_cpu_calls_from_several_threads_and_of_several_shapes(spec, dtype):
    # The CPU loops keep their scratch memory (the backward's partial sums, rows converted to float)
    # between calls, a block for each thread: calls of other shapes in between, and calls from other
    # threads at the same time, must not change a result. Each case is computed alone first, then
    # again in four threads at once, each thread walking the cases in its own order.
    cases = []
    for shape in [(300, 4097), (16, 65536), (7, 33), (1025, 7)]:
        xs, params, grad_outs = make_inputs(spec, shape, dtype, "cpu")
        arguments = (*backward_arguments(spec, xs, grad_outs), *params, spec.default_eps)
        forward = (*xs, *params, spec.default_eps)
        cases.append((forward, arguments, spec.function(*forward), spec.backward_op(*arguments)))

    def walk(order):
        for i in order:
            forward, arguments, output, grads = cases[i]
            again = spec.function(*forward)
            for a, b in zip(outputs_of(spec, again), outputs_of(spec, output), strict=True):
                assert torch.equal(a, b)
            assert all(torch.equal(a, b) for a, b in zip(spec.backward_op(*arguments), grads, strict=True))

    orders = [[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]]
    with concurrent.futures.ThreadPoolExecutor(len(orders)) as pool:
        for done in [pool.submit(walk, order * 3) for order in orders]:
            done.result()


def layer_eps(layer, dtype):
    """The eps a layer passes for an input of `dtype`: its own, or torch.nn.RMSNorm's default (the
    machine epsilon of the type the norm computes in: float32 for a half-precision input)."""
    if layer.eps is not None:
        return layer.eps
    return torch.finfo(torch.float64 if dtype == torch.float64 else torch.float32).eps


def identity_parameters(spec, x):
    """What a layer without learnable parameters passes in their place, in x's dtype and on its device:
    the unit scale (0 when zero-centred: it scales by 1 + weight), and LayerNorm's zero shift."""
    n = x.size(-1)
    scale = torch.full((n,), 0.0 if spec.zero_centered_weight else 1.0, dtype=x.dtype, device=x.device)
    return [scale, *([torch.zeros(n, dtype=x.dtype, device=x.device)] if spec.has_bias else [])]


def perturb(layer):
    """Moves each learnable parameter of the layer off its initial value by fresh random offsets, so
    that a test of the layer cannot pass on initial values alone."""
    with torch.no_grad():
        for p in layer.parameters():
            p.add_(0.1 * torch.randn_like(p))


def torch_layer(spec, *args, **kwargs):
    """The torch.nn layer the operator's layer stands in for."""
    return (nn.LayerNorm if spec.has_bias else nn.RMSNorm)(*args, **kwargs)


def forward_input_name(spec):
    """The name torch.nn's layer gives its forward's input: ``x`` (RMSNorm) or ``input`` (LayerNorm)."""
    return next(iter(inspect.signature(torch_layer(spec, 1).forward).parameters))


def test_layer_forward_names_its_input_as_torch_nn_does(spec):
    # A call or a hook that passes the input by torch.nn's name reaches ours (the residual add's
    # layers take `residual` after it).
    name = forward_input_name(spec)
    assert list(inspect.signature(spec.layer(8).forward).parameters)[0] == name
    inputs = {name: torch.randn(3, 8, dtype=torch.float64)}
    if spec.residual_add:
        inputs["residual"] = torch.randn(3, 8, dtype=torch.float64)
    layer = spec.layer(8, dtype=torch.float64)
    perturb(layer)
    torch.testing.assert_close(layer(**inputs), layer(*inputs.values()))


def test_layer_takes_torch_nn_s_arguments_in_their_order(spec):
    # The same names, defaults and kinds (each positional too) as the installed torch.nn layer's, so
    # that a call written for torch.nn's layer, positionally or by name, builds ours.
    ours = inspect.signature(spec.layer.__init__).parameters
    theirs = inspect.signature(torch_layer(spec, 1).__class__.__init__).parameters
    assert [(p.name, p.kind) for p in ours.values()] == [(p.name, p.kind) for p in theirs.values()]
    assert [p.default for p in ours.values()] == [p.default for p in theirs.values()]
    args = (8, 1e-3, True, *([True] if spec.has_bias else []), "cpu", torch.float64)
    layer = spec.layer(*args)
    assert layer.eps == 1e-3 and layer.weight.dtype == torch.float64 and layer.weight.device.type == "cpu"


@pytest.mark.parametrize("elementwise_affine", [True, False])
@pytest.mark.parametrize("device", DEVICES)
def test_layer_is_a_drop_in_for_torch_nn(spec, device, elementwise_affine):
    ours = spec.layer(48, elementwise_affine=elementwise_affine, device=device)
    theirs = torch_layer(spec, 48, elementwise_affine=elementwise_affine, device=device)
    # Code that sorts modules by type takes it for the torch layer, but for a zero-centred weight,
    # whose identity is 0, not 1 (code that sets each nn.RMSNorm's weight to 1 would double it).
    assert isinstance(ours, type(theirs)) != spec.zero_centered_weight
    assert ours.state_dict().keys() == theirs.state_dict().keys()
    assert [name for name, _ in ours.named_parameters()] == [name for name, _ in theirs.named_parameters()]
    assert [name for name, _ in ours.named_buffers()] == [name for name, _ in theirs.named_buffers()]
    x = 3 * torch.randn(16, 48, device=device) + 1
    torch.testing.assert_close(ours(x), theirs(x))  # the same function at first (1 + 0 where zero-centred)
    if not spec.zero_centered_weight:
        for a, b in zip(ours.parameters(), theirs.parameters(), strict=True):
            assert torch.equal(a, b)  # the same initial values
        theirs.load_state_dict(ours.state_dict())
    perturb(ours)
    if elementwise_affine and not spec.zero_centered_weight:
        theirs.load_state_dict(ours.state_dict())
    if not spec.zero_centered_weight:
        torch.testing.assert_close(ours(x), theirs(x))
    x64 = x.double()
    params = [p.double() for p in ours.parameters()] if elementwise_affine else identity_parameters(spec, x64)
    eps = layer_eps(ours, x.dtype)
    no_residual = [torch.zeros_like(x64)] if spec.residual_add else []  # what ours(x) adds
    expected = outputs_of(spec, spec.reference(x64, *no_residual, *params, eps))[0]
    assert_close(ours(x), expected, torch.float32)


@pytest.mark.parametrize("elementwise_affine", [True, False])
@pytest.mark.parametrize("device", DEVICES)
def test_layer_takes_x_of_any_dtype_as_torch_nn_does(spec, device, elementwise_affine):
    # A float32 layer on a float64 x computes in float64, as torch.nn.RMSNorm does (torch.nn.LayerNorm
    # without learnable parameters too), and a layer without learnable parameters takes an x of any
    # dtype, whatever dtype it was made in (its unit scale and zero shift are exact in every dtype).
    ours = spec.layer(48, elementwise_affine=elementwise_affine, device=device)
    perturb(ours)
    x64 = 3 * torch.randn(16, 48, device=device, dtype=torch.float64) + 1
    if elementwise_affine:
        params = [p.detach().double() for p in ours.parameters()]
    else:
        params = identity_parameters(spec, x64)
    no_residual = [torch.zeros_like(x64)] if spec.residual_add else []  # what ours(x) adds
    expected = outputs_of(spec, spec.reference(x64, *no_residual, *params, layer_eps(ours, x64.dtype)))[0]
    y = ours(x64)
    assert y.dtype == torch.float64
    assert_close(y, expected, torch.float64)
    if elementwise_affine:
        y.sum().backward()
        assert all(p.grad.dtype == torch.float32 for p in ours.parameters())
    else:
        bare = spec.layer(48, elementwise_affine=False, device=device, dtype=torch.bfloat16)
        x = x64.float()
        torch.testing.assert_close(bare(x), ours(x))  # a float32 x through a layer made in bfloat16
    # torch.nn's printed form, but for the class name.
    theirs = torch_layer(spec, 48, elementwise_affine=elementwise_affine, device=device)
    assert repr(ours).partition("(")[2] == repr(theirs).partition("(")[2]


WEIGHT_DTYPE_PAIRS = [
    (torch.float32, torch.bfloat16),
    (torch.float32, torch.float16),
    (torch.float32, torch.float64),
    (torch.bfloat16, torch.float16),
    (torch.float16, torch.float64),
]


@pytest.mark.parametrize(("x_dtype", "layer_dtype"), WEIGHT_DTYPE_PAIRS, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_layer_takes_a_weight_of_another_dtype_as_torch_nn_does(spec, device, x_dtype, layer_dtype):
    # torch.nn.RMSNorm takes a weight of any floating dtype (a bfloat16 layer on a float32 x under
    # CPU autocast) and gives y in x's dtype; torch.nn.LayerNorm refuses such pairs, and so does ours.
    ours = spec.layer(48, device=device, dtype=layer_dtype)
    perturb(ours)
    x = (3 * torch.randn(16, 48, device=device) + 1).to(x_dtype)
    if spec.has_bias:
        with pytest.raises((TypeError, RuntimeError), match="weight|bias|dtype"):
            ours(x)
        return
    y = ours(x)
    assert y.dtype == x_dtype
    x64, params = x.double(), [p.detach().double() for p in ours.parameters()]
    no_residual = [torch.zeros_like(x64)] if spec.residual_add else []  # what ours(x) adds
    expected = outputs_of(spec, spec.reference(x64, *no_residual, *params, layer_eps(ours, x_dtype)))[0]
    assert_close(y, expected, x_dtype)
    y.float().sum().backward()
    assert ours.weight.grad.dtype == layer_dtype


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_layer_default_eps_is_torch_nns(spec, device, dtype):
    # Rows of tiny values, where eps dominates the variance: the layer's default eps must be that of
    # the torch.nn layer it stands in for, in every dtype (RMSNorm's eps=None is the machine epsilon
    # of float32 for a half-precision x, not that of the half type).
    ours = spec.layer(64, device=device, dtype=dtype)
    theirs = torch_layer(spec, 64, device=device, dtype=dtype)
    if spec.zero_centered_weight:  # ours scales by 1 + weight
        with torch.no_grad():
            theirs.weight.copy_(ours.weight + 1)
    x = 1e-3 * torch.randn(8, 64, device=device, dtype=dtype)
    torch.testing.assert_close(ours(x), theirs(x))


@pytest.mark.parametrize("device", DEVICES)
def test_layer_norm_without_a_bias_is_a_drop_in(spec, device):
    # torch.nn.LayerNorm(..., bias=False): no bias parameter, and the results of a zero bias.
    if not spec.has_bias:
        pytest.skip("RMSNorm has no bias")
    ours = spec.layer(48, bias=False, device=device)
    theirs = torch_layer(spec, 48, bias=False, device=device)
    assert ours.state_dict().keys() == theirs.state_dict().keys() == {"weight"}
    with torch.no_grad():
        ours.weight.add_(0.1 * torch.randn_like(ours.weight))
    theirs.load_state_dict(ours.state_dict())
    x = 3 * torch.randn(16, 48, device=device) + 1
    torch.testing.assert_close(ours(x), theirs(x))
    # Its float32 weight with a bfloat16 x, as under autocast (the zero shift takes the weight's dtype):
    # y in x's dtype, as torch.nn.LayerNorm's on the CPU; torch's CUDA LayerNorm refuses such a mix,
    # so there the reference takes the rounded x in float32 and rounds its y.
    x16 = x.bfloat16()
    expected = theirs(x16) if device == "cpu" else theirs(x16.float()).bfloat16()
    torch.testing.assert_close(ours(x16), expected)


@pytest.mark.parametrize("then", ["reset_parameters", "load_state_dict", "assign"])
@pytest.mark.parametrize("form", [{}, {"elementwise_affine": False}, {"bias": False}], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_deferred_layer_computes_as_one_made_on_the_device(spec, device, form, then, monkeypatch):
    # Deferred initialization, as FSDP2 and torchtitan do it: made on the meta device, moved with
    # to_empty() (its memory left as it was: NaN here, to stand for whatever was there), then
    # reset_parameters() or a checkpoint's state_dict; or, as Hugging Face and torchtune load a
    # model, the checkpoint's tensors taken in place of the meta ones (load_state_dict(assign=True)),
    # which leaves anything outside the state_dict on the meta device. The layer must compute what
    # one made on the device does, without learnable parameters too.
    if "bias" in form and not spec.has_bias:
        pytest.skip("RMSNorm has no bias")
    made = spec.layer(48, device=device, **form)
    perturb(made)
    deferred = spec.layer(48, device="meta", **form)
    if then == "assign":
        deferred.load_state_dict(made.state_dict(), assign=True)
        x = 3 * torch.randn(16, 48, device=device) + 1
        torch.testing.assert_close(deferred(x), made(x))
        return
    monkeypatch.setattr(torch, "empty_like", lambda t, **options: torch.full_like(t, float("nan"), **options))
    deferred.to_empty(device=device)
    monkeypatch.undo()
    if then == "reset_parameters":
        made.reset_parameters()
        deferred.reset_parameters()
    else:
        deferred.load_state_dict(made.state_dict())
    x = 3 * torch.randn(16, 48, device=device) + 1
    torch.testing.assert_close(deferred(x), made(x))


def test_layer_refuses_a_shape_over_several_dimensions(spec):
    with pytest.raises(ValueError, match="normalized_shape must be one int"):
        spec.layer((4, 8))


@pytest.mark.parametrize("shape", [(3, 66), (66,), ()])
def test_layer_names_the_input_whose_width_is_not_its_own(spec, shape):
    # A width other than the layer's: the message names the input by torch.nn's name for it (x or
    # input), not the weight sized to the layer.
    message = rf"{forward_input_name(spec)} \(the input\) must have 64 elements in its last dimension"
    with pytest.raises(ValueError, match=message):
        spec.layer(64, elementwise_affine=False)(torch.randn(shape))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # TorchScript's, from torch 2.13 on
@pytest.mark.filterwarnings("error::torch.jit.TracerWarning")  # as torch.nn's layers, none
@pytest.mark.parametrize("elementwise_affine", [True, False])
@pytest.mark.parametrize("device", DEVICES)
def test_the_layer_traces_and_exports_but_does_not_script(spec, device, elementwise_affine):
    # What the generated README says of the layer: torch.jit.trace and torch.export take it (as they
    # do the torch layer); torch.jit.script cannot compile its Python.
    layer = spec.layer(32, elementwise_affine=elementwise_affine, device=device)
    perturb(layer)
    inputs = tuple(torch.randn(4, 32, device=device) for _ in range(2 if spec.residual_add else 1))
    expected = layer(*inputs)
    traced, exported = torch.jit.trace(layer, inputs), torch.export.export(layer, inputs).module()
    torch.testing.assert_close(traced(*inputs), expected)
    torch.testing.assert_close(exported(*inputs), expected)
    if not elementwise_affine:
        # Without parameters, neither keeps the device it was traced on (as the torch layer's do not):
        # moved to another device (the meta device here, standing for a GPU), each runs there.
        moved = tuple(t.to("meta") for t in inputs)
        for module in (traced.to("meta"), exported.to("meta")):
            assert outputs_of(spec, module(*moved))[0].device.type == "meta"
    with pytest.raises(Exception):  # noqa: B017, PT011 (TorchScript's own error types vary by release)
        torch.jit.script(layer)


@pytest.mark.parametrize("device", DEVICES)
def test_the_layer_survives_pickling(spec, device):
    layer = spec.layer(32, device=device)
    x = torch.randn(4, 32, device=device)
    again = pickle.loads(pickle.dumps(layer))
    assert type(again) is type(layer)
    torch.testing.assert_close(again(x), layer(x))
    torch.testing.assert_close(copy.deepcopy(layer)(x), layer(x))


def fake_of(mode, value):
    """A fake tensor of `value` for FakeTensorMode, or `value` itself where it is not a tensor (None)."""
    return mode.from_tensor(value) if isinstance(value, torch.Tensor) else value


def bad_inputs(spec):
    """(what is wrong, xs, params, eps, exception, message): what is wrong names the case in failures."""
    n = 8
    x = torch.randn(4, n)

    def activations(x):  # x, and with a residual add a residual that suits it
        return [x, torch.randn(x.shape).to(x.dtype)] if spec.residual_add else [x]

    good = [torch.randn(n) for _ in range(2 if spec.has_bias else 1)]
    xs = activations(x)
    cases = [
        (
            "int x",
            activations(x.int()),
            good,
            1e-5,
            TypeError,
            "x must be float32, float64, float16 or bfloat16",
        ),
        (
            "0-d x",
            activations(torch.tensor(1.0)),
            [torch.randn(1)] * len(good),
            1e-5,
            ValueError,
            "x must have at",
        ),
        ("short weight", xs, [torch.randn(n - 1), *good[1:]], 1e-5, ValueError, "weight must be 1-D"),
        ("2-d weight", xs, [torch.randn(1, n), *good[1:]], 1e-5, ValueError, "weight must be 1-D"),
        ("float64 weight", xs, [good[0].double(), *good[1:]], 1e-5, TypeError, "weight must have the dtype"),
        ("negative eps", xs, good, -1.0, ValueError, "eps must be a finite number >= 0"),
        ("nan eps", xs, good, float("nan"), ValueError, "eps must be a finite number >= 0"),
        ("infinite eps", xs, good, float("inf"), ValueError, "eps must be a finite number >= 0"),
    ]
    if spec.has_bias:
        cases.append(("short bias", xs, [good[0], torch.randn(n + 1)], 1e-5, ValueError, "bias must be 1-D"))
        cases.append(
            ("half bias", xs, [good[0], good[1].half()], 1e-5, TypeError, "bias must have the dtype")
        )
        bf16 = activations(x.bfloat16())
        mixed = [good[0], good[1].bfloat16()]  # each allowed alone with a bfloat16 x, not together
        message = "bias must have the dtype of weight"
        cases.append(("bias of another dtype", bf16, mixed, 1e-5, TypeError, message))
    cases.append(
        ("None weight", xs, [None, *good[1:]], 1e-5, TypeError, "weight must be a tensor, but got None")
    )
    # Another device: the meta device stands in for a GPU where there is none.
    message = "weight must be on the same device as x"
    cases.append(
        ("weight on another device", xs, [good[0].to("meta"), *good[1:]], 1e-5, RuntimeError, message)
    )
    if spec.has_bias:
        cases.append(
            ("None bias", xs, [good[0], None], 1e-5, TypeError, "bias must be a tensor, but got None")
        )
    if spec.residual_add:
        cases.append(
            ("None residual", [x, None], good, 1e-5, TypeError, "residual must be a tensor, but got None")
        )
        message = "residual must be on the same device as x"
        cases.append(("residual on another device", [x, x.to("meta")], good, 1e-5, RuntimeError, message))
        message = "residual must have the same dtype as x"
        cases.append(("float64 residual", [x, x.double()], good, 1e-5, TypeError, message))
        cases.append(
            ("short residual", [x, x[:2]], good, 1e-5, ValueError, "residual must have the shape of x")
        )
    return cases


@pytest.mark.parametrize("fake", [False, True], ids=["kernels", "fake"])
def test_bad_inputs_are_refused_with_a_message_that_names_the_argument(spec, fake):
    for what, xs, params, eps, error, message in bad_inputs(spec):
        if fake:
            with torch._subclasses.fake_tensor.FakeTensorMode() as mode:
                xs, params = [fake_of(mode, x) for x in xs], [fake_of(mode, p) for p in params]
                with pytest.raises(error, match=f"{spec.op_name}: {message}"):
                    spec.forward_op(*xs, *params, eps)
                    pytest.fail(f"accepted: {what}")
        else:
            with pytest.raises(error, match=f"{spec.op_name}: {message}"):
                spec.function(*xs, *params, eps)
                pytest.fail(f"accepted: {what}")


@pytest.mark.parametrize("fake", [False, True], ids=["kernels", "fake"])
@pytest.mark.parametrize("device", DEVICES)
def test_bad_grad_out_is_refused(spec, device, fake):
    xs, params, grad_outs = make_inputs(spec, (4, 8), torch.float32, device)
    backward = backward_arguments(spec, xs, grad_outs)
    x_name = "residual_out" if spec.residual_add else "x"
    names = ["grad_out", "grad_residual_out"] if spec.residual_add else ["grad_out"]
    for index, name in enumerate(names):
        for bad, error, message in [
            (backward[index].double(), TypeError, f"{name} must have the same dtype as {x_name}"),
            (backward[index][:2], ValueError, f"{name} must have the shape of {x_name}"),
        ]:
            arguments = [*backward[:index], bad, *backward[index + 1 :], *params]
            with pytest.raises(error, match=f"{spec.op_name}: {message}"):
                if fake:
                    with torch._subclasses.fake_tensor.FakeTensorMode() as mode:
                        spec.backward_op(*[fake_of(mode, a) for a in arguments], 1e-5)
                else:
                    spec.backward_op(*arguments, 1e-5)


def needs_residual_add(spec):
    if not spec.residual_add:
        pytest.skip("the operator adds no residual")


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_the_sum_is_normalized_as_rounded(spec, device, dtype):
    # The forward normalizes x + residual rounded once to x's dtype: the same output, to the bit, as
    # the forward of residual_out (that rounded sum) with a residual of zeros. (The CPU backward takes
    # its statistics from residual_out with the forward's code, so it then sees what the forward saw.)
    needs_residual_add(spec)
    xs, params, _ = make_inputs(spec, (16, 4099), dtype, device)
    y, residual_out = run(spec, xs, params, spec.default_eps)
    again, _ = run(spec, [residual_out, torch.zeros_like(residual_out)], params, spec.default_eps)
    assert torch.equal(y, again)


@pytest.mark.parametrize("used", ["out", "residual_out"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_gradients_through_one_output_of_the_residual_add(spec, device, dtype, used):
    # Where only one output reaches the loss, the other's gradient is None (no grad_residual_out, or
    # no grad_out at all): the gradients must still be the reference's, the same for x and residual.
    needs_residual_add(spec)
    eps = spec.default_eps
    xs, params, grad_outs = make_inputs(spec, (33, 257), dtype, device, requires_grad=True)
    index = 0 if used == "out" else 1
    output = run(spec, xs, params, eps)[index]
    grads = torch.autograd.grad(output, [*xs, *params], grad_outs[index], allow_unused=True)
    zero_grad_outs = [g if i == index else torch.zeros_like(g) for i, g in enumerate(grad_outs)]
    _, expected = reference_outputs(spec, xs, params, zero_grad_outs, eps)
    scales = gradient_scales(spec, xs, params, zero_grad_outs, eps)
    for grad, reference, scale in zip(grads, expected, scales, strict=True):
        if grad is None:  # residual_out alone does not depend on the parameters
            assert used == "residual_out" and reference.abs().max() == 0
        else:
            assert_close(grad, reference, grad.dtype if grad.dtype != torch.float32 else dtype, scale)


@pytest.mark.parametrize("device", DEVICES)
def test_backward_without_grad_residual_out(spec, device):
    # The backward operator's grad_residual_out is optional: None gives the norm's share alone.
    needs_residual_add(spec)
    xs, params, grad_outs = make_inputs(spec, (20, 96), torch.float64, device)
    grad_out, grad_residual_out, residual_out = backward_arguments(spec, xs, grad_outs)
    without = spec.backward_op(grad_out, None, residual_out, *params, 1e-5)
    with_it = spec.backward_op(grad_out, grad_residual_out, residual_out, *params, 1e-5)
    torch.testing.assert_close(with_it[0], without[0] + grad_residual_out, rtol=1e-12, atol=1e-12)
    for a, b in zip(with_it[1:], without[1:], strict=True):
        assert torch.equal(a, b)


@pytest.mark.parametrize("device", DEVICES)
def test_residual_layer_forms(spec, device):
    # layer(x, residual) -> (out, residual_out), as the operator; layer(x) -> the norm of x (no
    # residual stream yet); a float32 stream with a bfloat16 x adds and normalizes in float32, also
    # with bfloat16 parameters.
    needs_residual_add(spec)
    for layer_dtype in (torch.float32, torch.bfloat16):
        layer = spec.layer(64, device=device, dtype=layer_dtype)
        perturb(layer)
        params = list(layer.parameters())
        params64 = [p.double() for p in params]
        x = torch.randn(2, 16, 64, device=device).to(layer_dtype)
        residual = torch.randn(2, 16, 64, device=device).to(layer_dtype)
        eps = layer_eps(layer, layer_dtype)
        for ours, theirs in zip(layer(x, residual), spec.function(x, residual, *params, eps), strict=True):
            assert torch.equal(ours, theirs)
        expected = spec.reference(x.double(), torch.zeros_like(x.double()), *params64, eps)[0]
        assert_close(layer(x), expected, layer_dtype)
        # Rows of small values, where the eps of the wrong dtype would show.
        x, stream = (
            (0.02 * torch.randn(2, 16, 64, device=device)).bfloat16(),
            0.02 * torch.randn(2, 16, 64, device=device),
        )
        out, residual_out = layer(x, stream)
        assert out.dtype == residual_out.dtype == torch.float32
        torch.testing.assert_close(residual_out, x.float() + stream)
        eps = layer_eps(layer, torch.float32)
        expected = spec.reference(x.double(), stream.double(), *params64, eps)[0]
        assert_close(out, expected, torch.float32)


@pytest.mark.parametrize("dtype", HALF_DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_autocast_with_a_float32_residual_stream(spec, device, dtype):
    # A model under autocast keeps its residual stream in float32 and adds each sublayer's output, in
    # the autocast dtype, to it: the layer adds and normalizes in float32, as eager would, and every
    # gradient agrees with the float64 reference.
    needs_residual_add(spec)
    torch.manual_seed(0)
    linear = nn.Linear(64, 96, bias=False, device=device)
    layer = spec.layer(96, device=device)
    perturb(layer)
    x = torch.randn(32, 64, device=device)
    stream = torch.randn(32, 96, device=device, requires_grad=True)
    with torch.autocast(device, dtype=dtype):
        h = linear(x)
        outputs = layer(h, stream)
    assert h.dtype == dtype and all(o.dtype == torch.float32 for o in outputs)
    grad_outs = [torch.randn_like(o) for o in outputs]
    params = list(layer.parameters())
    grads = torch.autograd.grad(outputs, [stream, *params], grad_outs)
    xs = [h.detach(), stream.detach()]
    expected_outputs, expected = reference_outputs(
        spec, xs, params, grad_outs, layer_eps(layer, torch.float32)
    )
    for output, reference in zip(outputs, expected_outputs, strict=True):
        assert_close(output, reference, torch.float32)
    scales = gradient_scales(spec, xs, params, grad_outs, layer_eps(layer, torch.float32))
    assert_grads_close(grads, expected[1:], scales[1:], torch.float32)


def off_boundary(tensor):
    """A copy of tensor one element past a 16-byte boundary."""
    copy = torch.empty(tensor.numel() + 1, dtype=tensor.dtype, device=tensor.device)[1:].view(tensor.shape)
    with torch.no_grad():
        copy.copy_(tensor)
    return copy.requires_grad_(tensor.requires_grad)


@pytest.mark.parametrize("device", DEVICES)
def test_misaligned_residual_and_gradient(spec, device):
    # residual and grad_residual_out one element off a 16-byte boundary while x and grad_out are
    # aligned: the kernels must not take a vector path that only x's alignment allows.
    needs_residual_add(spec)
    xs, params, grad_outs = make_inputs(spec, (37, 1024), torch.bfloat16, device, requires_grad=True)
    xs, grad_outs = [xs[0], off_boundary(xs[1])], [grad_outs[0], off_boundary(grad_outs[1])]
    check_inputs(spec, xs, params, grad_outs, torch.bfloat16)


@pytest.mark.parametrize("shape", [(37, 1024), (37, 1023), (37, 4095)], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_misaligned_x_and_parameters(spec, device, shape):
    # x, then the parameters, then the bias alone, one element off a 16-byte boundary while the
    # outputs are aligned: the kernels must read the rows and the parameters as they lie, whatever N
    # (on CUDA, at 37 x 4095 LayerNorm's forward reads the parameters after the row's statistics, in
    # loads as wide as both allow, or, the bias alone moved, as each allows).
    xs, params, grad_outs = make_inputs(spec, shape, torch.bfloat16, device, requires_grad=True)
    check_inputs(spec, [off_boundary(xs[0]), *xs[1:]], params, grad_outs, torch.bfloat16)
    check_inputs(spec, xs, [off_boundary(p) for p in params], grad_outs, torch.bfloat16)
    if len(params) > 1:
        check_inputs(spec, xs, [params[0], off_boundary(params[1])], grad_outs, torch.bfloat16)


@pytest.mark.parametrize("device", DEVICES)
def test_layer_without_residual_add_refuses_a_residual(spec, device):
    if spec.residual_add:
        pytest.skip("the operator adds a residual")
    layer = spec.layer(8, device=device)
    with pytest.raises(TypeError, match="takes no residual"):
        layer(torch.randn(2, 8, device=device), torch.randn(2, 8, device=device))


@pytest.mark.parametrize("device", DATA_PARALLEL_DEVICES)
def test_training_under_distributed_data_parallel(spec, device, tmp_path):
    # Two processes (gloo on the CPU, NCCL on two GPUs), each taking half of every batch, train the
    # same as one process on whole batches: the layer's gradients reach DDP's reducer, and no state of
    # the operator differs between the processes.
    check_data_parallel(spec.layer, spec.residual_add, device, tmp_path)


# Every test above, for `from suites.row_norm import *` in an operator's test file.
__all__ = ["spec", *(name for name in list(globals()) if name.startswith("test_"))]
