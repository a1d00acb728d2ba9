"""The bias + activation family's tests, written once for the project and run for each operator.

An operator's test file (tests/test_<operator>.py) imports them and names its operator in OPERATOR;
pytest then collects them there, for that operator, with the operator's spec (its function,
reference, layer and gradcheck margin, from src/generated_gelu/families/bias_activation.py).

Each case runs on the CPU and on CUDA; the CUDA cases skip where no GPU is visible. Every test draws
fresh random inputs; results are compared with a float64 reference computed by plain PyTorch
operators under per-dtype tolerances.
"""

import copy
import importlib.util
import os
import pickle
from pathlib import Path

import pytest
import torch
import torch.autograd.forward_ad as fwAD
from torch import nn
from torch._subclasses.fake_tensor import FakeTensorMode

import generated_gelu  # (loads the library and registers the operators)
from generated_gelu.families.bias_activation import SPECS

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

PROJECT = Path(__file__).resolve().parents[2]  # the project folder (tests/suites/ is two down)


spec = spec_fixture(SPECS, generated_gelu)
# (rtol, atol) against the float64 reference: one rounding to the dtype, plus, for float32 on the
# GPU, the few-ulp error of the hardware exp and division.
TOLERANCES = {
    torch.float64: (1e-10, 1e-12),
    torch.float32: (2e-5, 1e-6),
    torch.float16: (2e-3, 1e-3),
    torch.bfloat16: (1.6e-2, 1e-2),
}
# Rows x columns with N = 1, odd N, N not a multiple of any vector width (1023, 1022: the CUDA
# kernels then treat several rows as one, and rows left over one at a time), few very wide rows,
# 1-D and 3-D inputs, and rows that do not split evenly into the CPU's chunks of grad_bias.
SHAPES = [
    (7,),
    (1, 1),
    (5, 3),
    (4, 33),
    (3, 5, 64),
    (64, 1000),
    (129, 257),
    (300, 8),
    (20, 1023),
    (9, 1022),
    (2, 40000),
    (3, 40001),
    (1025, 7),
]


def make_inputs(shape, dtype, device, requires_grad=False, bias_dtype=None):
    x = (2 * torch.randn(shape, dtype=torch.float64, device=device)).to(dtype)
    bias = torch.randn(shape[-1], dtype=torch.float64, device=device).to(bias_dtype or dtype)
    return x.requires_grad_(requires_grad), bias.requires_grad_(requires_grad)


def reference_grads(reference, x, bias, grad_out):
    """Gradients of the reference in float64."""
    x64 = x.detach().double().requires_grad_()
    bias64 = bias.detach().double().requires_grad_()
    y64 = reference(x64, bias64)
    return torch.autograd.grad(y64, (x64, bias64), grad_out.double())


def assert_close(actual, expected, dtype):
    rtol, atol = TOLERANCES[dtype]
    torch.testing.assert_close(actual.double(), expected.double(), rtol=rtol, atol=atol)


def assert_relative_error_below(actual, expected, bound):
    """||actual - expected|| / ||expected|| <= bound: for results accumulated over many terms."""
    error = (actual.double() - expected.double()).norm() / expected.double().norm().clamp_min(1e-30)
    assert error <= bound, f"relative error {error:.3g} above {bound:g}"


def column_magnitude(terms):
    """Sum of |terms| over all rows, per column."""
    return terms.abs().reshape(-1, terms.shape[-1]).sum(0)


def assert_bias_grad_close(actual, expected, magnitude, dtype):
    """grad_bias adds one term per row (the reference grad_x). Besides the rounding of the result,
    allow the accumulation error, which grows with the terms' magnitude (column_magnitude), not
    with their sum."""
    rtol, atol = TOLERANCES[dtype]
    accumulation = 1e-12 if dtype == torch.float64 else 4e-6  # float64 / float32 accumulators
    excess = (actual.double() - expected).abs() - (atol + rtol * expected.abs() + accumulation * magnitude)
    assert excess.numel() == 0 or excess.max() <= 0, f"grad_bias off by {excess.max():.3g} beyond tolerance"


def check_forward_and_backward(spec, x, bias, grad_out):
    """The operator's forward and backward against the float64 reference, in x's and bias's dtypes."""
    leaf_x, leaf_bias = x.detach().requires_grad_(), bias.detach().requires_grad_()
    y = spec.function(leaf_x, leaf_bias)
    assert y.shape == x.shape and y.dtype == x.dtype and y.device == x.device and y.is_contiguous()
    assert_close(y, spec.reference(x.double(), bias.double()), x.dtype)
    grad_x, grad_bias = torch.autograd.grad(y, (leaf_x, leaf_bias), grad_out)
    assert grad_x.dtype == x.dtype and grad_bias.dtype == bias.dtype
    expected_x, expected_bias = reference_grads(spec.reference, x, bias, grad_out)
    assert_close(grad_x, expected_x, x.dtype)
    assert_bias_grad_close(grad_bias, expected_bias, column_magnitude(expected_x), bias.dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_forward_matches_reference(spec, device, dtype, shape):
    x, bias = make_inputs(shape, dtype, device)
    y = spec.function(x, bias)
    assert y.shape == x.shape and y.dtype == dtype and y.device == x.device and y.is_contiguous()
    assert_close(y, spec.reference(x.double(), bias.double()), dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_backward_matches_reference(spec, device, dtype, shape):
    x, bias = make_inputs(shape, dtype, device, requires_grad=True)
    grad_out = torch.randn(shape, dtype=torch.float64, device=device).to(dtype)
    grad_x, grad_bias = torch.autograd.grad(spec.function(x, bias), (x, bias), grad_out)
    expected_x, expected_bias = reference_grads(spec.reference, x, bias, grad_out)
    assert grad_x.dtype == dtype and grad_bias.dtype == dtype
    assert_close(grad_x, expected_x, dtype)
    assert_bias_grad_close(grad_bias, expected_bias, column_magnitude(expected_x), dtype)


# Shapes that choose other block shapes and grids on CUDA (csrc/bias_activation/cuda.cuh): in the
# backward, a few very wide rows (8 Mi elements, above kFewRowsMinElements: the few-rows blocks); odd
# N over a few rows (the few-rows blocks, then fold_columns_kernel: one block row, and at 136 x
# 16001 several); odd N with many rows (partial sums across blocks, then the folded columns: summed
# in the kernel, and at 520 x 4097 by fold_columns_kernel); tall and narrow.
LARGE_SHAPES = [(4, 1 << 21), (33, 70001), (136, 16001), (4099, 1023), (520, 4097), (5000, 1022), (20000, 3)]
# (dtype of x, dtype of bias): a float32 bias with a half x is what autocast passes.
DTYPE_PAIRS = [
    (torch.float32, torch.float32),
    (torch.bfloat16, torch.bfloat16),
    (torch.float16, torch.float32),
]


@pytest.mark.parametrize("shape", LARGE_SHAPES, ids=str)
@pytest.mark.parametrize("dtypes", DTYPE_PAIRS, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_large_and_odd_shapes(spec, device, dtypes, shape):
    dtype, bias_dtype = dtypes
    x, bias = make_inputs(shape, dtype, device, bias_dtype=bias_dtype)
    check_forward_and_backward(spec, x, bias, torch.randn(shape, device=device).to(dtype))


# The other (x, bias) dtype pairs, each its own instantiation of the CUDA kernels: on CUDA only.
MORE_CUDA_DTYPE_PAIRS = [
    (torch.float16, torch.float16),
    (torch.bfloat16, torch.float32),
    (torch.float64, torch.float64),
]


@CUDA
@pytest.mark.parametrize("shape", LARGE_SHAPES, ids=str)
@pytest.mark.parametrize("dtypes", MORE_CUDA_DTYPE_PAIRS, ids=str)
def test_large_and_odd_shapes_more_dtype_pairs(spec, dtypes, shape):
    test_large_and_odd_shapes(spec, "cuda", dtypes, shape)


@pytest.mark.parametrize("shape", [(64, 96), (9, 1023), (3, 5, 40)], ids=str)
@pytest.mark.parametrize("dtype", HALF_DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_float32_bias_with_half_x(spec, device, dtype, shape):
    # What autocast passes: a low-precision activation and a float32 parameter. y has x's dtype,
    # grad_bias the bias's (float32, summed without rounding each term).
    x, bias = make_inputs(shape, dtype, device, bias_dtype=torch.float32)
    check_forward_and_backward(spec, x, bias, torch.randn(shape, device=device).to(dtype))


@pytest.mark.parametrize("device", DEVICES)
def test_gradcheck_float64(spec, device):
    x, bias = make_inputs((6, 13), torch.float64, device, requires_grad=True)
    with torch.no_grad():  # keep x + bias away from where the derivative jumps (spec.gradcheck_margin)
        x += spec.gradcheck_margin * torch.sign(x + bias)
    assert torch.autograd.gradcheck(spec.function, (x, bias))


@pytest.mark.parametrize("device", DEVICES)
def test_double_backward_is_refused(spec, device):
    x, bias = make_inputs((6, 13), torch.float64, device, requires_grad=True)
    # The first derivative with create_graph=True is right...
    (grad_x,) = torch.autograd.grad(spec.function(x, bias).sum(), x, create_graph=True)
    (expected,) = torch.autograd.grad(spec.reference(x, bias).sum(), x)
    torch.testing.assert_close(grad_x, expected)
    # ...and differentiating it again fails loudly instead of returning zeros.
    refused = rf"^{spec.op_name}: double backward is not supported"
    with pytest.raises(NotImplementedError, match=refused):
        torch.autograd.grad(grad_x.square().sum(), (x, bias))
    with pytest.raises(NotImplementedError, match=r"double backward is not supported"):
        torch.autograd.gradgradcheck(spec.function, (x, bias))


@pytest.mark.parametrize("device", DEVICES)
def test_calls_without_grad_skip_the_autograd_formula(spec, device):
    x, bias = make_inputs((8, 24), torch.float32, device, requires_grad=True)
    assert spec.function(x, bias).grad_fn is not None  # recorded where a gradient is needed
    # The C++ autograd formula refuses torch.func transforms. Inside torch.func.grad, a call on
    # inputs that are not differentiated works only if the autograd kernel skips the formula.
    constant, constant_bias, weight = x.detach(), bias.detach(), torch.randn_like(x)
    grad = torch.func.grad(lambda weight: (weight * spec.function(constant, constant_bias)).sum())(weight)
    # That gradient is the operator's output, checked against the float64 reference as the suite's
    # other tests are (against eager's float32 it once failed on CPU by 1.03e-6 where 1e-6 was allowed).
    assert_close(grad, spec.reference(constant.double(), constant_bias.double()), torch.float32)


@pytest.mark.parametrize("where", [0, 1, 2, "bias per sample"], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_vmap_gives_each_sample_its_output(spec, device, where):
    # The operator's batching rule (families/batching.py): one call for the batch where only x is
    # batched (vmap's dimension first, second or last of the tensor given), one call per sample
    # where the bias is. The fallback is off.
    batch = 3
    x, bias = make_inputs((batch, 5, 33), torch.float64, device)
    per_sample = where == "bias per sample"
    if per_sample:
        bias = bias + torch.randn(batch, *bias.shape, dtype=bias.dtype, device=device)
    in_dims, given = ((0, 0), x) if per_sample else ((where, None), x.movedim(0, where))
    with without_vmap_fallback():
        y = torch.func.vmap(spec.function, in_dims=in_dims)(given, bias)
    for i in range(batch):
        expected = spec.reference(x[i].double(), (bias[i] if bias.dim() == 2 else bias).double())
        assert_close(y[i], expected, torch.float64)


@pytest.mark.parametrize("device", DEVICES)
def test_vmap_over_the_gradient_of_the_output(spec, device):
    # vmap over torch.autograd.grad's grad_outputs runs the backward operator under vmap: its rule
    # gives each sample its bias gradient. (torch.autograd.grad(..., is_grads_batched=True) takes
    # PyTorch's older vmap, which has no rules: its per-sample fallback does that.)
    batch = 3
    x, bias = make_inputs((5, 33), torch.float64, device, requires_grad=True)
    y = spec.function(x, bias)
    grad_out = torch.randn(batch, *y.shape, dtype=y.dtype, device=device)
    with without_vmap_fallback():
        grads = torch.func.vmap(lambda g: torch.autograd.grad(y, (x, bias), g, retain_graph=True))(grad_out)
    for i in range(batch):
        for grad, expected in zip(grads, reference_grads(spec.reference, x, bias, grad_out[i]), strict=True):
            assert_close(grad[i], expected, torch.float64)


@pytest.mark.parametrize("device", DEVICES)
def test_gradients_through_vmap(spec, device):
    # A call under vmap records the autograd graph as a call outside it does.
    x, bias = make_inputs((3, 5, 33), torch.float64, device, requires_grad=True)
    grad_out = torch.randn(x.shape, dtype=x.dtype, device=device)
    with without_vmap_fallback():
        y = torch.func.vmap(spec.function, in_dims=(0, None))(x, bias)
        grads = torch.autograd.grad(y, (x, bias), grad_out)
    assert_close(y, spec.reference(x.detach().double(), bias.detach().double()), torch.float64)
    for grad, expected in zip(grads, reference_grads(spec.reference, x, bias, grad_out), strict=True):
        assert_close(grad, expected, torch.float64)


@pytest.mark.parametrize("device", DEVICES)
def test_vmap_over_no_samples(spec, device):
    # A batch of none: an empty output of each sample's shape, by either path of the rule, whose
    # gradients are zeros.
    x, bias = make_inputs((0, 5, 33), torch.float64, device, requires_grad=True)
    for given, dims in ((bias, (0, None)), (bias.detach().expand(0, 33).requires_grad_(), (0, 0))):
        with without_vmap_fallback():
            y = torch.func.vmap(spec.function, in_dims=dims)(x, given)
        assert (y.shape, y.dtype) == ((0, 5, 33), torch.float64)
        grads = torch.autograd.grad(y.sum(), (x, given))
        assert all(g.shape == t.shape and not g.any() for g, t in zip(grads, (x, given), strict=True))


@pytest.mark.parametrize("device", DEVICES)
def test_vmap_calls_the_operator_once_for_a_batch_of_x(spec, device):
    # One call for the batch where only x is batched; one a sample where the bias is (each counted
    # beside vmap's own call).
    batch = 4
    x, bias = make_inputs((batch, 5, 33), torch.float64, device)
    assert calls_of(spec.name, torch.func.vmap(spec.function, in_dims=(0, None)), x, bias) == 2
    each = torch.func.vmap(spec.function, in_dims=(0, 0))
    assert calls_of(spec.name, each, x, bias.expand(batch, 33)) == 1 + batch


@pytest.mark.parametrize("device", DEVICES)
def test_vmap_refuses_samples_of_no_dimension(spec, device):
    # As outside vmap: a sample of x with no dimension is refused. One call for the batch would take
    # the samples for a row, which a bias of the batch's size would then shift silently.
    x, bias = make_inputs((4,), torch.float64, device)
    with without_vmap_fallback(), pytest.raises(ValueError, match="x must have at least 1 dimension"):
        torch.func.vmap(spec.function, in_dims=(0, None))(x, bias)


@pytest.mark.parametrize("device", DEVICES)
def test_forward_mode_ad_is_refused(spec, device):
    x, bias = make_inputs((6, 13), torch.float64, device)
    tangent = torch.randn_like(x)
    refused = rf"^{spec.op_name}: forward-mode AD \(torch.func.jvp, torch.autograd.forward_ad\) is not"
    # Without the refusal the result would carry no tangent: zero directional derivatives.
    with pytest.raises(NotImplementedError, match=refused):
        torch.func.jvp(lambda x: spec.function(x, bias), (x,), (tangent,))
    with fwAD.dual_level(), pytest.raises(NotImplementedError, match=refused):
        spec.function(x, fwAD.make_dual(bias, torch.randn_like(bias)))
    with fwAD.dual_level(), pytest.raises(NotImplementedError, match=refused):
        spec.backward_op(fwAD.make_dual(tangent, x), x, bias)
    # The reference that the message names gives the directional derivative, which for this
    # elementwise family is the backward with the tangent as grad_out.
    _, expected = torch.func.jvp(lambda x: spec.reference(x, bias), (x,), (tangent,))
    assert_close(spec.backward_op(tangent, x, bias)[0], expected, torch.float64)


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("dtypes", DTYPE_PAIRS, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_opcheck(spec, device, dtypes, requires_grad):
    dtype, bias_dtype = dtypes
    x, bias = make_inputs((8, 24), dtype, device, requires_grad=requires_grad, bias_dtype=bias_dtype)
    torch.library.opcheck(spec.forward_op, (x, bias))
    grad_out = torch.randn(8, 24, dtype=dtype, device=device)
    torch.library.opcheck(spec.backward_op, (grad_out, x.detach(), bias.detach()))


@pytest.mark.parametrize("device", DEVICES)
def test_torch_compile_fullgraph(spec, device):
    torch._dynamo.reset()
    model = nn.Sequential(nn.Linear(32, 48, bias=False), spec.layer(48)).to(device)
    with torch.no_grad():
        model[1].bias.normal_()
    compiled = torch.compile(model, fullgraph=True)  # raises on any graph break
    x = torch.randn(16, 32, device=device, requires_grad=True)
    y_compiled = compiled(x)
    torch.testing.assert_close(y_compiled, model(x))
    grads_compiled = torch.autograd.grad(y_compiled.sum(), (x, model[1].bias))
    grads_eager = torch.autograd.grad(model(x).sum(), (x, model[1].bias))
    for compiled_grad, eager_grad in zip(grads_compiled, grads_eager, strict=True):
        torch.testing.assert_close(compiled_grad, eager_grad)


def test_torch_compile_refuses_a_bad_input_while_tracing(spec):
    x, bias = make_inputs((4, 8), torch.float32, "cpu", bias_dtype=torch.float64)
    assert_refused_while_tracing(spec.function, x, bias)


def linear_then_layer(spec, device, features=96):
    """A float32 linear layer without bias followed by the layer, as the layer's docstring suggests."""
    model = nn.Sequential(nn.Linear(64, features, bias=False), spec.layer(features)).to(device)
    with torch.no_grad():
        model[1].bias.normal_()
    return model


def eager_forward(spec, model, x):
    """The same model in eager PyTorch: act(linear(x) + bias)."""
    return spec.reference(model[0](x), model[1].bias)


@pytest.mark.parametrize("dtype", HALF_DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_autocast_matches_eager_autocast(spec, device, dtype):
    model = linear_then_layer(spec, device)
    x = torch.randn(32, 64, device=device)
    params = (model[0].weight, model[1].bias)
    with torch.autocast(device, dtype=dtype):
        y = model(x)
        expected = eager_forward(spec, model, x)
    # The output has the autocast dtype (the linear layer's), as F.linear with a bias gives; eager's
    # x + bias promotes to float32. They agree within the autocast dtype's rounding.
    assert y.dtype == dtype and expected.dtype == torch.float32
    assert_close(y, expected, dtype)
    grad_out = torch.randn_like(expected)
    grads = torch.autograd.grad(y, params, grad_out.to(dtype))
    expected_grads = torch.autograd.grad(expected, params, grad_out)
    for grad, expected_grad, param in zip(grads, expected_grads, params, strict=True):
        assert grad.dtype == param.dtype == torch.float32  # float32 parameters get float32 gradients
        assert_relative_error_below(grad, expected_grad, 2e-2)


@pytest.mark.parametrize("dtype", HALF_DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_autocast_with_torch_compile_fullgraph(spec, device, dtype):
    torch._dynamo.reset()
    # Another width per dtype: torch 2.11's compile caches returned the bfloat16 graph under float16
    # autocast for the same model (they do not tell the ambient autocast dtypes apart).
    model = linear_then_layer(spec, device, features={torch.bfloat16: 96, torch.float16: 80}[dtype])
    compiled = torch.compile(model, fullgraph=True)
    x = torch.randn(16, 64, device=device)
    with torch.autocast(device, dtype=dtype):
        y_compiled = compiled(x)
        y_eager = model(x)
    assert y_compiled.dtype == dtype
    assert_close(y_compiled, y_eager, dtype)  # the compiled linear layer may round differently
    params = (model[0].weight, model[1].bias)
    grads_compiled = torch.autograd.grad(y_compiled.float().sum(), params)
    grads_eager = torch.autograd.grad(y_eager.float().sum(), params)
    for compiled_grad, eager_grad in zip(grads_compiled, grads_eager, strict=True):
        assert compiled_grad.dtype == torch.float32
        assert_relative_error_below(compiled_grad, eager_grad, 1e-2)


@pytest.mark.parametrize("device", DEVICES)
def test_float16_training_with_grad_scaler(spec, device):
    # A few steps of float16 mixed-precision training, once with the layer and once with eager
    # PyTorch from the same start: the same steps overflow (none, at this scale), and the parameters
    # end up the same.
    model = nn.Sequential(linear_then_layer(spec, device), nn.Linear(96, 1, device=device))
    eager_model = copy.deepcopy(model)
    eager_model[0].forward = lambda x: eager_forward(spec, eager_model[0], x)
    start = [param.detach().clone() for param in model.parameters()]
    losses, scales = {}, {}
    for name, net in (("ours", model), ("eager", eager_model)):
        optimizer = torch.optim.SGD(net.parameters(), lr=0.05)
        scaler = torch.amp.GradScaler(device, init_scale=128.0)  # low enough not to overflow here
        generator = torch.Generator(device).manual_seed(0)
        for _ in range(3):
            x = torch.randn(32, 64, device=device, generator=generator)
            target = torch.randn(32, 1, device=device, generator=generator)
            with torch.autocast(device, dtype=torch.float16):
                loss = nn.functional.mse_loss(net(x).float(), target)
            scaler.scale(loss).backward()
            assert net[0][1].bias.grad.dtype == torch.float32
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad()
        losses[name], scales[name] = loss.item(), scaler.get_scale()
    assert scales["ours"] == scales["eager"] == 128.0  # no step found an overflow and was skipped
    for ours, eager, before in zip(model.parameters(), eager_model.parameters(), start, strict=True):
        assert not torch.equal(ours, before)  # every parameter was trained
        torch.testing.assert_close(ours, eager, rtol=1e-2, atol=1e-3)
    assert abs(losses["ours"] - losses["eager"]) <= 1e-2 * max(1.0, abs(losses["eager"]))


@pytest.mark.parametrize("device", DEVICES)
def test_non_contiguous_inputs_are_accepted(spec, device):
    # x transposed, bias strided, grad_out transposed: each is copied to contiguous memory first.
    x = torch.randn(40, 24, device=device).t()
    bias = torch.randn(80, device=device)[::2]
    y = spec.function(x, bias)
    assert y.is_contiguous()
    torch.testing.assert_close(y, spec.function(x.contiguous(), bias.contiguous()), rtol=0, atol=0)
    grad_out = torch.randn(40, 24, device=device).t()
    grads = spec.backward_op(grad_out, x, bias)
    expected = spec.backward_op(grad_out.contiguous(), x.contiguous(), bias.contiguous())
    for grad, want in zip(grads, expected, strict=True):
        torch.testing.assert_close(grad, want, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_view_with_offset_storage(spec, device, dtype):
    # A view one element into its storage: the data pointer is not aligned to a vector.
    rows, cols = 33, 64
    storage = torch.randn(rows * cols + 1, dtype=torch.float64, device=device).to(dtype)
    x = storage[1:].view(rows, cols)
    bias = torch.randn(cols + 1, dtype=torch.float64, device=device).to(dtype)[1:]
    assert_close(spec.function(x, bias), spec.reference(x.double(), bias.double()), dtype)
    grad_out = torch.randn(rows * cols + 1, dtype=torch.float64, device=device).to(dtype)
    grad_out = grad_out[1:].view(rows, cols)
    grad_x, grad_bias = spec.backward_op(grad_out, x, bias)
    expected_x, expected_bias = reference_grads(spec.reference, x, bias, grad_out)
    assert_close(grad_x, expected_x, dtype)
    assert_bias_grad_close(grad_bias, expected_bias, column_magnitude(expected_x), dtype)


@pytest.mark.parametrize("shape", [(0, 8), (3, 0), (0,), (2, 0, 5)], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_empty_tensors_give_empty_results(spec, device, shape):
    x, bias = make_inputs(shape, torch.float32, device, requires_grad=True)
    y = spec.function(x, bias)
    assert y.shape == x.shape
    grad_x, grad_bias = torch.autograd.grad(y, (x, bias), torch.ones_like(y))
    assert grad_x.shape == x.shape
    assert torch.equal(grad_bias, torch.zeros_like(bias))  # a sum over no rows


# What "deterministic" promises: the same inputs give the same bits, on every run and from any
# buffers of the same alignment; on the CPU also whatever the number of threads. On CUDA the order in
# which grad_bias adds its terms follows the grid, which follows the GPU model (its number of
# multiprocessors), the shape, the dtype and the alignment of the data pointers: another GPU model
# or alignment may round differently, within the tolerances above.
# The shapes: partial rows across blocks; the same with folded columns; on CUDA the few-rows blocks
# with folded columns summed by fold_columns_kernel, and without folding.
@pytest.mark.parametrize("shape", [(4096, 96), (4099, 1023), (136, 16001), (4, 1 << 21)], ids=str)
@pytest.mark.parametrize("dtypes", [(torch.float32, torch.float32), (torch.bfloat16, torch.float32)], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_backward_is_deterministic(spec, device, dtypes, shape):
    dtype, bias_dtype = dtypes
    x, bias = make_inputs(shape, dtype, device, bias_dtype=bias_dtype)
    grad_out = torch.randn(shape, device=device).to(dtype)
    first = spec.backward_op(grad_out, x, bias)
    for _ in range(3):
        # Fresh copies: other buffers, the same alignment (the allocator aligns every block alike).
        again = spec.backward_op(grad_out.clone(), x.clone(), bias.clone())
        assert all(torch.equal(a, b) for a, b in zip(first, again, strict=True))


# Many chunks of rows; a few rows cut into several column blocks.
@pytest.mark.parametrize("shape", [(4099, 96), (40, 9000)], ids=str)
def test_cpu_grad_bias_does_not_depend_on_the_thread_count(spec, shape):
    x, bias = make_inputs(shape, torch.float32, "cpu")
    grad_out = torch.randn(shape)
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one_thread = spec.backward_op(grad_out, x, bias)
        for count in sorted({2, 3, max(4, os.cpu_count() or 1)}):
            torch.set_num_threads(count)
            again = spec.backward_op(grad_out, x, bias)
            assert all(torch.equal(a, b) for a, b in zip(one_thread, again, strict=True)), f"{count} threads"
    finally:
        torch.set_num_threads(threads)


def _loaded_libraries() -> list[Path]:
    """The shared libraries this process has loaded (Linux: /proc/self/maps), else none."""
    maps = Path("/proc/self/maps")
    if not maps.exists():
        return []
    return sorted({Path(line.split()[-1]) for line in maps.read_text().splitlines() if line.endswith(".so")})


def test_cpu_loops_are_compiled_with_openmp():
    """Without -fopenmp, at::parallel_for compiles to a serial loop: the CPU loops would run on one
    thread whatever torch.set_num_threads says (and the thread-count test above would pass trivially).
    The build adds -fopenmp where torch uses OpenMP and the compiler has it (build_config.py)."""
    build_config = PROJECT / "build_config.py"
    if not torch.backends.openmp.is_available() or not build_config.exists():
        pytest.skip("torch without OpenMP, or the package runs outside its project folder")
    spec = importlib.util.spec_from_file_location("project_build_config", build_config)
    config = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(config)
    if not config.openmp_flags():
        pytest.skip("this compiler has no OpenMP: the build leaves it out")
    package = Path(generated_gelu.__file__).parent
    jit_library = f"{package.name}_jit"  # the just-in-time build's library (_jit.py)
    ours = [lib for lib in _loaded_libraries() if lib.parent == package or lib.name.startswith(jit_library)]
    assert ours, "the package's compiled library is not loaded"
    runtime = (b"GOMP_parallel", b"__kmpc_fork_call")  # GCC's and LLVM's OpenMP entry points
    assert any(name in lib.read_bytes() for lib in ours for name in runtime), (
        f"{ours} calls no OpenMP runtime: its CPU loops run on one thread"
    )


@pytest.mark.parametrize("device", DEVICES)
def test_layer(spec, device):
    layer = spec.layer(24, device=device, dtype=torch.float64)
    assert isinstance(layer.bias, nn.Parameter) and layer.bias.shape == (24,)
    with torch.no_grad():
        layer.bias.normal_()
    x = torch.randn(5, 24, dtype=torch.float64, device=device)
    torch.testing.assert_close(layer(x), spec.reference(x, layer.bias))
    layer(x).sum().backward()
    assert layer.bias.grad is not None and layer.bias.grad.shape == (24,)


# Each bad input raises its documented exception, whose message names the argument.
# case: (x, bias) on a device, the exception, a regular expression its message matches.
BAD_INPUTS = {
    "integer x": (
        lambda d: (torch.ones(4, 8, dtype=torch.int32, device=d), torch.randn(8, device=d)),
        TypeError,
        r"x must be float32, float64, float16 or bfloat16",
    ),
    "complex x": (
        lambda d: (torch.randn(4, 8, dtype=torch.complex64, device=d), torch.randn(8, device=d)),
        TypeError,
        r"x must be float32",
    ),
    "bias of another dtype": (
        lambda d: (torch.randn(4, 8, device=d), torch.randn(8, dtype=torch.float64, device=d)),
        TypeError,
        r"bias must have the dtype of x \(Float\)",
    ),
    "float16 bias with a bfloat16 x": (
        lambda d: (
            torch.randn(4, 8, dtype=torch.bfloat16, device=d),
            torch.randn(8, dtype=torch.float16, device=d),
        ),
        TypeError,
        r"bias must have the dtype of x \(BFloat16\) or, for a float16 or bfloat16 x, float32",
    ),
    "0-d x": (
        lambda d: (torch.randn((), device=d), torch.randn(1, device=d)),
        ValueError,
        r"x must have at least 1 dimension",
    ),
    "2-D bias": (
        lambda d: (torch.randn(4, 8, device=d), torch.randn(1, 8, device=d)),
        ValueError,
        r"bias must be 1-D with x.size\(-1\) = 8 elements",
    ),
    "bias of the wrong length": (
        lambda d: (torch.randn(4, 8, device=d), torch.randn(7, device=d)),
        ValueError,
        r"bias must be 1-D with x.size\(-1\) = 8 elements, but got shape \[7\]",
    ),
}


@pytest.mark.parametrize("case", BAD_INPUTS, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_bad_inputs_are_refused(spec, device, case):
    make_args, error, message = BAD_INPUTS[case]
    with pytest.raises(error, match=message):
        spec.function(*make_args(device))


@pytest.mark.parametrize("device", DEVICES)
def test_bad_grad_out_is_refused(spec, device):
    x, bias = make_inputs((4, 8), torch.float32, device)
    with pytest.raises(ValueError, match=r"grad_out must have the shape of x"):
        spec.backward_op(torch.randn(4, 9, device=device), x, bias)
    with pytest.raises(TypeError, match=r"grad_out must have the same dtype as x"):
        spec.backward_op(torch.randn(4, 8, dtype=torch.float64, device=device), x, bias)


@pytest.mark.parametrize("case", BAD_INPUTS, ids=str)
def test_fake_kernels_refuse_what_the_kernels_refuse(spec, case):
    # torch.compile traces with the fake kernels: a bad input fails there as in eager.
    make_args, error, message = BAD_INPUTS[case]
    with FakeTensorMode() as mode:
        args = [mode.from_tensor(tensor) for tensor in make_args("cpu")]
        with pytest.raises(error, match=message):
            spec.function(*args)
        x, bias = (mode.from_tensor(tensor) for tensor in make_inputs((4, 8), torch.float32, "cpu"))
        with pytest.raises(ValueError, match=r"grad_out must have the shape of x \[4, 8\], but got \[4, 9\]"):
            spec.backward_op(mode.from_tensor(torch.randn(4, 9)), x, bias)
        with pytest.raises(TypeError, match=r"grad_out must have the same dtype as x \(Float\)"):
            spec.backward_op(mode.from_tensor(torch.randn(4, 8, dtype=torch.float64)), x, bias)


def test_meta_tensors_mixed_with_others_are_refused(spec):
    # A call with a meta tensor runs the fake kernel, which must not return a result for it.
    x, bias = make_inputs((4, 8), torch.float32, "cpu")
    with pytest.raises(
        RuntimeError, match=r"bias must be on the same device as x, but x is on cpu and bias is on meta"
    ):
        spec.function(x, bias.to("meta"))
    with pytest.raises(RuntimeError, match=r"grad_out must be on the same device as x"):
        spec.backward_op(torch.randn(4, 8, device="meta"), x, bias)


@CUDA
def test_tensors_on_different_devices_are_refused(spec):
    x, bias = make_inputs((4, 8), torch.float32, "cuda")
    with pytest.raises(RuntimeError, match=r"bias must be on the same device as x"):
        spec.function(x, bias.cpu())
    with pytest.raises(RuntimeError, match=r"bias must be on the same device as x"):
        spec.function(x.cpu(), bias)
    with pytest.raises(RuntimeError, match=r"grad_out must be on the same device as x"):
        spec.backward_op(torch.randn(4, 8), x, bias)


@CUDA
def test_cuda_graphs_reduce_overhead(spec):
    torch._dynamo.reset()
    layer = spec.layer(256, device="cuda")
    with torch.no_grad():
        layer.bias.normal_()
    compiled = torch.compile(layer, mode="reduce-overhead", fullgraph=True)
    for _ in range(4):
        x = torch.randn(512, 256, device="cuda")
        torch.testing.assert_close(compiled(x).clone(), spec.reference(x, layer.bias))


@CUDA
def test_cuda_graph_captures_forward_and_backward(spec):
    # The whole training-step pattern in one graph: the forward, the backward's scratch memory, its
    # memset and its cross-block counters. Replays with new inputs must give new, right results.
    shape = (4099, 1023)  # several blocks per column strip and folded columns: every backward phase
    x, bias = make_inputs(shape, torch.float32, "cuda", requires_grad=True)
    grad_out = torch.randn(shape, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up outside the capture, as CUDA graphs require
        for _ in range(3):
            torch.autograd.grad(spec.function(x, bias), (x, bias), grad_out)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = spec.function(x, bias)
        grad_x, grad_bias = torch.autograd.grad(y, (x, bias), grad_out)
    for _ in range(3):
        with torch.no_grad():
            x.copy_(2 * torch.randn(shape, device="cuda"))
            bias.copy_(torch.randn(shape[-1], device="cuda"))
            grad_out.copy_(torch.randn(shape, device="cuda"))
        graph.replay()
        torch.cuda.synchronize()
        assert_close(y, spec.reference(x.double(), bias.double()), torch.float32)
        expected_x, expected_bias = reference_grads(spec.reference, x, bias, grad_out)
        assert_close(grad_x, expected_x, torch.float32)
        assert_bias_grad_close(grad_bias, expected_bias, column_magnitude(expected_x), torch.float32)


@CUDA
def test_kernels_run_on_the_current_stream(spec):
    # The inputs are written on a side stream after a long wait. Kernels on that stream wait for the
    # write; a kernel launched on another stream (the legacy default one, say) would not, and
    # would read the old values.
    shape = (2048, 512)
    x, bias = make_inputs(shape, torch.float32, "cuda", requires_grad=True)
    new_x, new_grad_out = torch.randn(shape, device="cuda"), torch.randn(shape, device="cuda")
    grad_out = torch.zeros(shape, device="cuda")
    torch.cuda.synchronize()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        torch.cuda._sleep(100_000_000)  # about 50 ms of GPU time on this stream
        with torch.no_grad():
            x.copy_(new_x)
            grad_out.copy_(new_grad_out)
        y = spec.function(x, bias)
        grad_x, grad_bias = torch.autograd.grad(y, (x, bias), grad_out)
    torch.cuda.synchronize()
    assert_close(y, spec.reference(new_x.double(), bias.double()), torch.float32)
    expected_x, expected_bias = reference_grads(spec.reference, new_x, bias, new_grad_out)
    assert_close(grad_x, expected_x, torch.float32)
    assert_bias_grad_close(grad_bias, expected_bias, column_magnitude(expected_x), torch.float32)


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
@pytest.mark.parametrize("shape", [(300, 128), (4099, 1023)], ids=str)
def test_second_device(spec, shape):
    x, bias = make_inputs(shape, torch.bfloat16, "cuda:1")
    grad_out = torch.randn(shape, device="cuda:1").bfloat16()
    check_forward_and_backward(spec, x, bias, grad_out)


def need_free_gpu_memory(gib):
    free, _ = torch.cuda.mem_get_info()
    if free < gib * 2**30:
        pytest.skip(f"needs {gib} GiB of free GPU memory")


def row_slices(rows, step):
    """Slices of at most `step` rows: a float64 reference of a huge tensor, a part at a time."""
    return [slice(start, min(start + step, rows)) for start in range(0, rows, step)]


@CUDA
def test_more_than_2_31_elements(spec):
    # 64-bit indexing: x.numel() > 2**31 in bfloat16, as a view one element into its storage, so the
    # kernels use their one-element path and compute element indices above 2**31. Every value of y,
    # grad_x and grad_bias is checked against the reference, in slices.
    rows, cols = 2**31 // 8192 + 3, 8192
    need_free_gpu_memory(28)
    x = torch.randn(rows * cols + 1, device="cuda", dtype=torch.bfloat16)[1:].view(rows, cols)
    grad_out = torch.randn(rows * cols + 1, device="cuda", dtype=torch.bfloat16)[1:].view(rows, cols)
    bias = torch.randn(cols, device="cuda", dtype=torch.bfloat16)
    assert x.numel() > 2**31 and x.data_ptr() % 16 != 0
    y = spec.function(x, bias)
    grad_x, grad_bias = spec.backward_op(grad_out, x, bias)
    expected_bias = torch.zeros(cols, device="cuda", dtype=torch.float64)
    magnitude = torch.zeros(cols, device="cuda", dtype=torch.float64)
    for part in row_slices(rows, 16384):
        assert_close(y[part], spec.reference(x[part].double(), bias.double()), torch.bfloat16)
        terms, _ = reference_grads(spec.reference, x[part], bias, grad_out[part])
        assert_close(grad_x[part], terms, torch.bfloat16)
        expected_bias += terms.sum(0)
        magnitude += column_magnitude(terms)
    assert_bias_grad_close(grad_bias, expected_bias, magnitude, torch.bfloat16)


@CUDA
def test_forward_with_a_bias_over_256_kib_over_2_31_elements(spec):
    # A bias over 256 KiB sends the forward to the row strips (the flat kernel would fetch it again
    # for every row). x is a view one element into its storage, so the strips use one-element
    # vectors and their vector offsets exceed 2**31: more than 2**31 elements of bfloat16. Every
    # value of y is checked against the reference, in slices.
    rows, cols = 2**31 // 131080 + 2, 131080
    need_free_gpu_memory(12)
    x = torch.randn(rows * cols + 1, device="cuda", dtype=torch.bfloat16)[1:].view(rows, cols)
    bias = torch.randn(cols, device="cuda", dtype=torch.bfloat16)
    assert x.numel() > 2**31 and x.data_ptr() % 16 != 0
    assert bias.numel() * bias.element_size() > 256 * 1024
    y = spec.function(x, bias)
    for part in row_slices(rows, 256):
        assert_close(y[part], spec.reference(x[part].double(), bias.double()), torch.bfloat16)


@CUDA
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=str)
def test_forward_over_2_30_elements(spec, dtype):
    # The forward sees x as one sequence of whole vectors in chunks of at most 2**30 elements (whole
    # rows: the column arithmetic of a chunk is 32-bit): more than 2**30 elements span two chunks, and
    # rows of 1023 (no multiple of the vector width) put vectors across row ends. (bfloat16 takes the
    # chunks with one-element vectors in test_more_than_2_31_elements.) Every value of y is checked
    # against the reference, in slices.
    rows, cols = 2**30 // 1023 + 5, 1023
    need_free_gpu_memory(12)
    x = (2 * torch.randn(rows, cols, device="cuda")).to(dtype)
    bias = torch.randn(cols, device="cuda", dtype=dtype)
    assert x.numel() > 2**30
    y = spec.function(x, bias)
    for part in row_slices(rows, 65536):
        assert_close(y[part], spec.reference(x[part].double(), bias.double()), dtype)


@pytest.mark.parametrize("device", DEVICES)
def test_the_layer_survives_pickling(spec, device):
    model = nn.Sequential(nn.Linear(8, 16, bias=False), spec.layer(16)).to(device)
    with torch.no_grad():
        model[1].bias.normal_()
    again = pickle.loads(pickle.dumps(model))  # as torch.save(model) does: the layer's class by name
    assert type(again[1]) is spec.layer
    x = torch.randn(4, 8, device=device)
    torch.testing.assert_close(again(x), model(x))


@pytest.mark.parametrize("device", DATA_PARALLEL_DEVICES)
def test_training_under_distributed_data_parallel(spec, device, tmp_path):
    # Two processes (gloo on the CPU, NCCL on two GPUs), each taking half of every batch, train the
    # same as one process on whole batches: the layer's gradients reach DDP's reducer, and no state of
    # the operator differs between the processes.
    check_data_parallel(spec.layer, False, device, tmp_path)


# Every test above, for `from suites.bias_activation import *` in an operator's test file.
__all__ = ["spec", *(name for name in list(globals()) if name.startswith("test_"))]
