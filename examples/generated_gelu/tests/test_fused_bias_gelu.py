"""Tests of the fused_bias_gelu operator.

Each case runs on the CPU and on CUDA; the CUDA cases skip where no GPU is visible.

Every test draws fresh random inputs; results are compared with a float64 reference computed by
plain PyTorch operators under per-dtype tolerances.
"""

import pytest
import torch
from torch import nn

import generated_gelu

op = generated_gelu.fused_bias_gelu
reference = generated_gelu.reference_fused_bias_gelu
Layer = generated_gelu.FusedBiasGelu
OP = torch.ops.generated_gelu.fused_bias_gelu.default
BACKWARD_OP = torch.ops.generated_gelu.fused_bias_gelu_backward.default

CUDA = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
DEVICES = ["cpu", pytest.param("cuda", marks=CUDA)]
DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
# (rtol, atol) against the float64 reference: one rounding to the dtype, plus, for float32 on the
# GPU, the few-ulp error of the hardware exp and division.
TOLERANCES = {
    torch.float64: (1e-10, 1e-12),
    torch.float32: (2e-5, 1e-6),
    torch.float16: (2e-3, 1e-3),
    torch.bfloat16: (1.6e-2, 1e-2),
}
# Rows x columns with N = 1, odd N, N not a multiple of any vector width, 1-D and 3-D inputs.
SHAPES = [(7,), (1, 1), (5, 3), (4, 33), (3, 5, 64), (64, 1000), (129, 257), (300, 8)]


def make_inputs(shape, dtype, device, requires_grad=False):
    x = (2 * torch.randn(shape, dtype=torch.float64, device=device)).to(dtype)
    bias = torch.randn(shape[-1], dtype=torch.float64, device=device).to(dtype)
    return x.requires_grad_(requires_grad), bias.requires_grad_(requires_grad)


def reference_grads(x, bias, grad_out):
    """Gradients of the reference in float64."""
    x64 = x.detach().double().requires_grad_()
    bias64 = bias.detach().double().requires_grad_()
    y64 = reference(x64, bias64)
    return torch.autograd.grad(y64, (x64, bias64), grad_out.double())


def assert_close(actual, expected, dtype):
    rtol, atol = TOLERANCES[dtype]
    torch.testing.assert_close(actual.double(), expected, rtol=rtol, atol=atol)


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


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_forward_matches_reference(device, dtype, shape):
    x, bias = make_inputs(shape, dtype, device)
    y = op(x, bias)
    assert y.shape == x.shape and y.dtype == dtype and y.device == x.device and y.is_contiguous()
    assert_close(y, reference(x.double(), bias.double()), dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_backward_matches_reference(device, dtype, shape):
    x, bias = make_inputs(shape, dtype, device, requires_grad=True)
    grad_out = torch.randn(shape, dtype=torch.float64, device=device).to(dtype)
    grad_x, grad_bias = torch.autograd.grad(op(x, bias), (x, bias), grad_out)
    expected_x, expected_bias = reference_grads(x, bias, grad_out)
    assert grad_x.dtype == dtype and grad_bias.dtype == dtype
    assert_close(grad_x, expected_x, dtype)
    assert_bias_grad_close(grad_bias, expected_bias, column_magnitude(expected_x), dtype)


@pytest.mark.parametrize("device", DEVICES)
def test_gradcheck_float64(device):
    x, bias = make_inputs((6, 13), torch.float64, device, requires_grad=True)
    assert torch.autograd.gradcheck(op, (x, bias))


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_opcheck(device, dtype, requires_grad):
    x, bias = make_inputs((8, 24), dtype, device, requires_grad=requires_grad)
    torch.library.opcheck(OP, (x, bias))
    grad_out = torch.randn(8, 24, dtype=dtype, device=device)
    torch.library.opcheck(BACKWARD_OP, (grad_out, x.detach(), bias.detach()))


@pytest.mark.parametrize("device", DEVICES)
def test_torch_compile_fullgraph(device):
    torch._dynamo.reset()
    model = nn.Sequential(nn.Linear(32, 48, bias=False), Layer(48)).to(device)
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


@pytest.mark.parametrize("device", DEVICES)
def test_non_contiguous_inputs_are_accepted(device):
    # x transposed, bias strided, grad_out transposed: each is copied to contiguous memory first.
    x = torch.randn(40, 24, device=device).t()
    bias = torch.randn(80, device=device)[::2]
    y = op(x, bias)
    assert y.is_contiguous()
    torch.testing.assert_close(y, op(x.contiguous(), bias.contiguous()), rtol=0, atol=0)
    grad_out = torch.randn(40, 24, device=device).t()
    grads = BACKWARD_OP(grad_out, x, bias)
    expected = BACKWARD_OP(grad_out.contiguous(), x.contiguous(), bias.contiguous())
    for grad, want in zip(grads, expected, strict=True):
        torch.testing.assert_close(grad, want, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_view_with_offset_storage(device, dtype):
    # A view one element into its storage: the data pointer is not aligned to a vector.
    rows, cols = 33, 64
    storage = torch.randn(rows * cols + 1, dtype=torch.float64, device=device).to(dtype)
    x = storage[1:].view(rows, cols)
    bias = torch.randn(cols + 1, dtype=torch.float64, device=device).to(dtype)[1:]
    assert_close(op(x, bias), reference(x.double(), bias.double()), dtype)
    grad_out = torch.randn(rows * cols + 1, dtype=torch.float64, device=device).to(dtype)
    grad_out = grad_out[1:].view(rows, cols)
    grad_x, grad_bias = BACKWARD_OP(grad_out, x, bias)
    expected_x, expected_bias = reference_grads(x, bias, grad_out)
    assert_close(grad_x, expected_x, dtype)
    assert_bias_grad_close(grad_bias, expected_bias, column_magnitude(expected_x), dtype)


@pytest.mark.parametrize("shape", [(0, 8), (3, 0), (0,), (2, 0, 5)], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_empty_tensors_give_empty_results(device, shape):
    x, bias = make_inputs(shape, torch.float32, device, requires_grad=True)
    y = op(x, bias)
    assert y.shape == x.shape
    grad_x, grad_bias = torch.autograd.grad(y, (x, bias), torch.ones_like(y))
    assert grad_x.shape == x.shape
    assert torch.equal(grad_bias, torch.zeros_like(bias))  # a sum over no rows


@pytest.mark.parametrize("device", DEVICES)
def test_backward_is_deterministic(device):
    x, bias = make_inputs((4096, 96), torch.float32, device)
    grad_out = torch.randn(4096, 96, device=device)
    first = BACKWARD_OP(grad_out, x, bias)
    for _ in range(3):
        again = BACKWARD_OP(grad_out, x, bias)
        assert all(torch.equal(a, b) for a, b in zip(first, again, strict=True))


@pytest.mark.parametrize("device", DEVICES)
def test_layer(device):
    layer = Layer(24, device=device, dtype=torch.float64)
    assert isinstance(layer.bias, nn.Parameter) and layer.bias.shape == (24,)
    with torch.no_grad():
        layer.bias.normal_()
    x = torch.randn(5, 24, dtype=torch.float64, device=device)
    torch.testing.assert_close(layer(x), reference(x, layer.bias))
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
        r"bias must have the same dtype as x",
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
def test_bad_inputs_are_refused(device, case):
    make_args, error, message = BAD_INPUTS[case]
    with pytest.raises(error, match=message):
        op(*make_args(device))


@pytest.mark.parametrize("device", DEVICES)
def test_bad_grad_out_is_refused(device):
    x, bias = make_inputs((4, 8), torch.float32, device)
    with pytest.raises(ValueError, match=r"grad_out must have the shape of x"):
        BACKWARD_OP(torch.randn(4, 9, device=device), x, bias)
    with pytest.raises(TypeError, match=r"grad_out must have the same dtype as x"):
        BACKWARD_OP(torch.randn(4, 8, dtype=torch.float64, device=device), x, bias)


@CUDA
def test_tensors_on_different_devices_are_refused():
    x, bias = make_inputs((4, 8), torch.float32, "cuda")
    with pytest.raises(RuntimeError, match=r"bias must be on the same device as x"):
        op(x, bias.cpu())
    with pytest.raises(RuntimeError, match=r"bias must be on the same device as x"):
        op(x.cpu(), bias)
    with pytest.raises(RuntimeError, match=r"grad_out must be on the same device as x"):
        BACKWARD_OP(torch.randn(4, 8), x, bias)


@CUDA
def test_cuda_graphs_reduce_overhead():
    # Kernels must run on the current stream, or CUDA graph replays read stale data.
    torch._dynamo.reset()
    layer = Layer(256, device="cuda")
    with torch.no_grad():
        layer.bias.normal_()
    compiled = torch.compile(layer, mode="reduce-overhead", fullgraph=True)
    for _ in range(4):
        x = torch.randn(512, 256, device="cuda")
        torch.testing.assert_close(compiled(x).clone(), reference(x, layer.bias))


@CUDA
def test_non_default_stream():
    x, bias = make_inputs((2048, 512), torch.float32, "cuda", requires_grad=True)
    grad_out = torch.randn(2048, 512, device="cuda")
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        y = op(x, bias)
        grad_x, grad_bias = torch.autograd.grad(y, (x, bias), grad_out)
    torch.cuda.current_stream().wait_stream(stream)
    expected_x, expected_bias = reference_grads(x, bias, grad_out)
    assert_close(y, reference(x.double(), bias.double()), torch.float32)
    assert_close(grad_x, expected_x, torch.float32)
    assert_bias_grad_close(grad_bias, expected_bias, column_magnitude(expected_x), torch.float32)


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
def test_second_device():
    x, bias = make_inputs((300, 128), torch.bfloat16, "cuda:1", requires_grad=True)
    y = op(x, bias)
    assert y.device == x.device
    assert_close(y, reference(x.double(), bias.double()), torch.bfloat16)
    grad_x, grad_bias = torch.autograd.grad(y, (x, bias), torch.ones_like(y))
    assert grad_x.device == x.device and grad_bias.device == x.device


@CUDA
def test_more_than_2_31_elements():
    # 64-bit indexing: x.numel() > 2**31 in bfloat16 (4 GiB a tensor). Checked on the first and last
    # rows against the reference, and grad_bias against a float32 sum taken in chunks.
    rows, cols = 2**31 // 8192 + 3, 8192
    free, _ = torch.cuda.mem_get_info()
    if free < 28 * 2**30:
        pytest.skip("needs 28 GiB of free GPU memory")
    x, bias = make_inputs((rows, cols), torch.bfloat16, "cuda")
    grad_out = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    assert x.numel() > 2**31
    y = op(x, bias)
    grad_x, grad_bias = BACKWARD_OP(grad_out, x, bias)
    for part in (slice(0, 4), slice(rows - 4, rows)):
        xs = x[part].double()
        assert_close(y[part], reference(xs, bias.double()), torch.bfloat16)
        expected_x, _ = reference_grads(x[part], bias, grad_out[part])
        assert_close(grad_x[part], expected_x, torch.bfloat16)
    del y, grad_x
    expected_bias = torch.zeros(cols, device="cuda", dtype=torch.float64)
    magnitude = torch.zeros(cols, device="cuda", dtype=torch.float64)
    for start in range(0, rows, 8192):
        part = slice(start, min(start + 8192, rows))
        terms, _ = reference_grads(x[part], bias, grad_out[part])
        expected_bias += terms.sum(0)
        magnitude += column_magnitude(terms)
    assert_bias_grad_close(grad_bias, expected_bias, magnitude, torch.bfloat16)
