"""The row normalization family's tests, written once for the project and run for each operator.

An operator's test file (tests/test_<operator>.py) imports them and names its operator in OPERATOR;
pytest then collects them there, for that operator, with the operator's spec (its function,
reference, layer and norm, from src/generated_rmsnorm/families/row_norm.py).

Each case runs on the CPU and on CUDA; the CUDA cases skip where no GPU is visible. Every test draws
fresh random inputs (rows with a mean away from zero, so that LayerNorm's centring matters); results
are compared with a float64 reference computed by plain PyTorch operators under per-dtype tolerances.
"""

import copy
import pickle

import pytest
import torch
import torch.autograd.forward_ad as fwAD
from torch import nn

import generated_rmsnorm  # noqa: F401  (loads the library and registers the operators)
from generated_rmsnorm.families.row_norm import SPECS, Spec


@pytest.fixture(scope="module")
def spec(request) -> Spec:
    """The operator of the test module that imported these tests (its OPERATOR)."""
    return SPECS[request.module.OPERATOR]


CUDA = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
DEVICES = ["cpu", pytest.param("cuda", marks=CUDA)]
DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
HALF_DTYPES = [torch.bfloat16, torch.float16]
# Relative to the largest element of the float64 reference: one rounding to the dtype, plus the
# float32 statistics' rounding over rows of up to 10^5 elements.
TOLERANCES = {torch.float64: 1e-10, torch.float32: 2e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}
# Rows x N: N = 1, odd N, N not a multiple of any vector width, a few very wide rows, 1-D and 3-D
# inputs, and rows that do not split evenly into the CPU's chunks of the parameter gradients.
SHAPES = [(7,), (1, 1), (5, 3), (4, 33), (3, 5, 64), (64, 1000), (129, 257), (9, 1023), (2, 40001), (1025, 7)]


def make_inputs(spec, shape, dtype, device, param_dtype=None, requires_grad=False):
    """x (rows of mean 0.5 and standard deviation 2), its parameters and a grad_out, in float64 and
    rounded to the dtypes; the parameters in param_dtype (that of x by default)."""
    n = shape[-1]
    x = (2 * torch.randn(shape, dtype=torch.float64, device=device) + 0.5).to(dtype)
    params = [(1 + 0.5 * torch.randn(n, dtype=torch.float64, device=device)).to(param_dtype or dtype)]
    if spec.has_bias:
        params.append(torch.randn(n, dtype=torch.float64, device=device).to(param_dtype or dtype))
    grad_out = torch.randn(shape, dtype=torch.float64, device=device).to(dtype)
    if requires_grad:
        x.requires_grad_()
        for p in params:
            p.requires_grad_()
    return x, params, grad_out


def reference_outputs(spec, x, params, grad_out, eps):
    """The float64 reference's output and gradients (x's, then each parameter's)."""
    x64 = x.detach().double().requires_grad_()
    params64 = [p.detach().double().requires_grad_() for p in params]
    y = spec.reference(x64, *params64, eps)
    grads = torch.autograd.grad(y, [x64, *params64], grad_out.double()) if y.numel() else ()
    return y.detach(), grads


def gradient_scales(spec, x, params, grad_out, eps):
    """The magnitude of the terms each gradient adds up, before they cancel: grad_x's row terms
    (rstd times |weight * grad_out|), then each parameter's sum over the rows of |its terms|. An
    error is measured against these (a gradient near zero from large terms that cancel, as with
    N = 1, is only known to within their rounding)."""
    x, grad_out = x.detach().double(), grad_out.detach().double().abs()
    centered = x - x.mean(-1, keepdim=True) if spec.has_bias else x
    rstd = torch.rsqrt(centered.pow(2).mean(-1, keepdim=True) + eps)
    weight = params[0].detach().double() + (1 if spec.zero_centered_weight else 0)
    rows = grad_out.reshape(-1, x.shape[-1])
    # |x| too: the reference rounds x - mean (exactly 0 for LayerNorm at N = 1) to within |x|'s ulps.
    x_hat = ((centered.abs() + x.abs()) * rstd).reshape(rows.shape)
    scales = [(rstd * weight.abs() * grad_out).amax().item(), (rows * x_hat).sum(0).amax().item()]
    if spec.has_bias:
        scales.append(rows.sum(0).amax().item())
    return scales


def assert_close(actual, expected, dtype, scale=None):
    """Within the dtype's tolerance of `scale`, by default the largest element of the reference."""
    tolerance = TOLERANCES[dtype]
    if scale is None:
        scale = expected.abs().max().item() if expected.numel() else 1.0
    torch.testing.assert_close(actual.double(), expected, rtol=tolerance, atol=tolerance * max(scale, 1e-30))


def check_against_reference(spec, device, dtype, shape, param_dtype=None):
    eps = spec.default_eps
    x, params, grad_out = make_inputs(spec, shape, dtype, device, param_dtype, requires_grad=True)
    y = spec.function(x, *params, eps)
    assert y.dtype == dtype and y.shape == x.shape and y.is_contiguous()
    expected_y, expected_grads = reference_outputs(spec, x, params, grad_out, eps)
    assert_close(y, expected_y, dtype)
    grads = torch.autograd.grad(y, [x, *params], grad_out)
    scales = gradient_scales(spec, x, params, grad_out, eps)
    for tensor, grad, expected, scale in zip([x, *params], grads, expected_grads, scales, strict=True):
        assert grad.dtype == tensor.dtype and grad.shape == tensor.shape
        # float32 statistics: a half x's gradients are as exact as the dtype they are rounded to.
        assert_close(grad, expected, grad.dtype if grad.dtype != torch.float32 else dtype, scale)


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


# Rows the CUDA kernels hold in registers at one to eight vectors a thread, rows they read again for
# each step (over 4096 vectors), N not a multiple of the vector width on either path, and many rows
# of a few threads each.
CUDA_SHAPES = [
    (4099, 1024),
    (33, 16384),
    (5, 32768),
    (4, 65536),
    (3, 100000),
    (2, 1 << 17),
    (7, 40003),
    (20000, 24),
]


@CUDA
@pytest.mark.parametrize("shape", CUDA_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32], ids=str)
def test_cuda_shapes(spec, dtype, shape):
    check_against_reference(spec, "cuda", dtype, shape)
    check_against_reference(spec, "cuda", dtype, shape, param_dtype=torch.float32)


@CUDA
def test_cuda_graph_captures_forward_and_backward(spec):
    # A training step in one graph: the forward, the backward's workspace and its second kernel.
    # Replays with new inputs must give new, right results.
    shape = (2050, 1536)
    x, params, grad_out = make_inputs(spec, shape, torch.float32, "cuda", requires_grad=True)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up outside the capture, as CUDA graphs require
        for _ in range(3):
            torch.autograd.grad(spec.function(x, *params), [x, *params], grad_out)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y = spec.function(x, *params)
        grads = torch.autograd.grad(y, [x, *params], grad_out)
    for _ in range(3):
        new_x, new_params, new_grad_out = make_inputs(spec, shape, torch.float32, "cuda")
        with torch.no_grad():
            for tensor, value in zip([x, *params, grad_out], [new_x, *new_params, new_grad_out], strict=True):
                tensor.copy_(value)
        graph.replay()
        torch.cuda.synchronize()
        expected_y, expected_grads = reference_outputs(spec, x, params, grad_out, spec.default_eps)
        assert_close(y, expected_y, torch.float32)
        scales = gradient_scales(spec, x, params, grad_out, spec.default_eps)
        for grad, expected, scale in zip(grads, expected_grads, scales, strict=True):
            assert_close(grad, expected, torch.float32, scale)


@CUDA
def test_kernels_run_on_the_current_stream(spec):
    # The inputs are written on a side stream behind a long sleep; a kernel launched on any other
    # stream would read them before they are written.
    shape = (512, 2048)
    new_x, new_params, new_grad_out = make_inputs(spec, shape, torch.float32, "cuda")
    x, grad_out = torch.zeros_like(new_x), torch.zeros_like(new_grad_out)
    torch.cuda.synchronize()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        torch.cuda._sleep(100_000_000)  # about 50 ms of GPU time on this stream
        x.copy_(new_x)
        grad_out.copy_(new_grad_out)
        y = spec.function(x, *new_params)
        grads = spec.backward_op(grad_out, x, *new_params, spec.default_eps)
    torch.cuda.synchronize()
    expected_y, expected_grads = reference_outputs(spec, new_x, new_params, new_grad_out, spec.default_eps)
    assert_close(y, expected_y, torch.float32)
    scales = gradient_scales(spec, new_x, new_params, new_grad_out, spec.default_eps)
    for grad, expected, scale in zip(grads, expected_grads, scales, strict=True):
        assert_close(grad, expected, torch.float32, scale)


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
@pytest.mark.parametrize("shape", [(300, 128), (65, 16384)], ids=str)
def test_second_device(spec, shape):
    check_against_reference(spec, "cuda:1", torch.bfloat16, shape)


@CUDA
def test_more_than_2_31_elements(spec):
    # 64-bit indexing: x.numel() > 2**31 in bfloat16. Every value of y and grad_x is checked against
    # the reference in slices of rows, and the parameters' gradients against the sum of the slices'.
    rows, cols = 2**31 // 4096 + 3, 4096
    free, _ = torch.cuda.mem_get_info()
    if free < 24 * 2**30:
        pytest.skip("needs 24 GiB of free GPU memory")
    _, params, _ = make_inputs(spec, (1, cols), torch.bfloat16, "cuda")
    x = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16).mul_(2).add_(0.5)
    grad_out = torch.randn(rows, cols, device="cuda", dtype=torch.bfloat16)
    assert x.numel() > 2**31
    eps = spec.default_eps
    y = spec.function(x, *params, eps)
    grads = spec.backward_op(grad_out, x, *params, eps)
    param_sums = [torch.zeros(cols, dtype=torch.float64, device="cuda") for _ in params]
    for start in range(0, rows, 65536):
        part = slice(start, min(start + 65536, rows))
        expected_y, expected_grads = reference_outputs(spec, x[part], params, grad_out[part], eps)
        assert_close(y[part], expected_y, torch.bfloat16)
        scale = gradient_scales(spec, x[part], params, grad_out[part], eps)[0]
        assert_close(grads[0][part], expected_grads[0], torch.bfloat16, scale)
        for total, grad in zip(param_sums, expected_grads[1:], strict=True):
            total += grad
        del expected_y, expected_grads
    for grad, expected in zip(grads[1:], param_sums, strict=True):
        # a float32 sum over 2^19 rows, rounded to bfloat16
        assert_close(grad, expected, torch.bfloat16)


@pytest.mark.parametrize("eps", [0.0, 1e-2])
@pytest.mark.parametrize("device", DEVICES)
def test_eps_is_used(spec, device, eps):
    # Rows of small values, where eps dominates the variance: another eps gives another result.
    x, params, grad_out = make_inputs(spec, (16, 64), torch.float64, device)
    x = x * 1e-2
    expected, _ = reference_outputs(spec, x, params, grad_out, eps)
    assert_close(spec.function(x, *params, eps), expected, torch.float64)


def test_default_eps_is_the_schemas(spec):
    schema = spec.forward_op._schema
    assert float(schema.arguments[-1].default_value) == spec.default_eps
    x, params, _ = make_inputs(spec, (8, 32), torch.float64, "cpu")
    assert torch.equal(spec.function(x, *params), spec.function(x, *params, spec.default_eps))


@pytest.mark.parametrize("device", DEVICES)
def test_gradcheck_float64(spec, device):
    x, params, _ = make_inputs(spec, (6, 13), torch.float64, device, requires_grad=True)
    assert torch.autograd.gradcheck(lambda x, *p: spec.function(x, *p, 1e-3), (x, *params))


@pytest.mark.parametrize("device", DEVICES)
def test_double_backward_is_refused(spec, device):
    x, params, grad_out = make_inputs(spec, (4, 16), torch.float64, device, requires_grad=True)
    (grad_x,) = torch.autograd.grad(spec.function(x, *params), x, grad_out, create_graph=True)
    with pytest.raises(NotImplementedError, match=f"{spec.op_name}: double backward is not supported"):
        grad_x.sum().backward()


@pytest.mark.parametrize("device", DEVICES)
def test_forward_mode_ad_is_refused(spec, device):
    x, params, _ = make_inputs(spec, (4, 16), torch.float64, device)
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, torch.randn_like(x))
        with pytest.raises(NotImplementedError, match=f"{spec.op_name}: forward-mode AD .* is not supported"):
            spec.function(dual, *params)


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("param_dtype", [None, torch.float32], ids=["same", "float32"])
@pytest.mark.parametrize("device", DEVICES)
def test_opcheck(spec, device, param_dtype, requires_grad):
    x, params, grad_out = make_inputs(spec, (8, 40), torch.bfloat16, device, param_dtype, requires_grad)
    torch.library.opcheck(spec.forward_op, (x, *params, spec.default_eps))
    torch.library.opcheck(spec.backward_op, (grad_out, x.detach(), *[p.detach() for p in params], 1e-3))


@pytest.mark.parametrize("device", DEVICES)
def test_torch_compile_fullgraph(spec, device):
    torch._dynamo.reset()
    layer = spec.layer(64, device=device)
    compiled = torch.compile(layer, fullgraph=True)
    x = torch.randn(8, 64, device=device, requires_grad=True)
    y = compiled(x)
    torch.testing.assert_close(y, layer(x))
    (grad,) = torch.autograd.grad(y.sum(), x)
    (expected,) = torch.autograd.grad(layer(x).sum(), x)
    torch.testing.assert_close(grad, expected)


@pytest.mark.parametrize("dtype", HALF_DTYPES, ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_autocast_training_step(spec, device, dtype):
    # Linear then the norm layer under autocast: the layer takes the low-precision activation and its
    # float32 parameters, returns the activation's dtype, and its parameters get float32 gradients
    # that agree with the float64 reference.
    torch.manual_seed(0)
    linear = nn.Linear(64, 96, bias=False, device=device)
    layer = spec.layer(96, device=device)
    with torch.no_grad():
        for p in layer.parameters():
            p.add_(0.1 * torch.randn_like(p))
    x = torch.randn(32, 64, device=device)
    with torch.autocast(device, dtype=dtype):
        h = linear(x)
        y = layer(h)
    assert h.dtype == dtype and y.dtype == dtype
    grad_out = torch.randn_like(y)
    params = list(layer.parameters())
    grads = torch.autograd.grad(y, params, grad_out)
    assert all(g.dtype == torch.float32 for g in grads)
    eps = layer.eps if layer.eps is not None else torch.finfo(dtype).eps
    expected_y, expected = reference_outputs(spec, h.detach(), params, grad_out, eps)
    assert_close(y, expected_y, dtype)
    for grad, reference in zip(grads, expected[1:], strict=True):
        assert_close(grad, reference, dtype)


@pytest.mark.parametrize("device", DEVICES)
def test_non_contiguous_inputs_are_accepted(spec, device):
    x, params, grad_out = make_inputs(spec, (40, 64), torch.float32, device)
    x_t = x.t().contiguous().t().requires_grad_()  # the same values, column-major
    params = [p.requires_grad_() for p in params]
    check_y, check_grads = reference_outputs(spec, x_t, params, grad_out, spec.default_eps)
    y = spec.function(x_t, *params)
    assert_close(y, check_y, torch.float32)
    for grad, expected in zip(torch.autograd.grad(y, [x_t, *params], grad_out), check_grads, strict=True):
        assert_close(grad, expected, torch.float32)


@pytest.mark.parametrize("shape", [(0, 8), (3, 0), (0,), (2, 0, 5)], ids=str)
@pytest.mark.parametrize("device", DEVICES)
def test_empty_tensors_give_empty_results(spec, device, shape):
    x, params, grad_out = make_inputs(spec, shape, torch.float32, device, requires_grad=True)
    y = spec.function(x, *params)
    assert y.shape == x.shape
    grads = torch.autograd.grad(y, [x, *params], grad_out, allow_unused=True)
    assert grads[0].shape == x.shape
    for grad, p in zip(grads[1:], params, strict=True):
        assert torch.equal(grad, torch.zeros_like(p))  # a sum over no rows


@pytest.mark.parametrize("shape", [(4096, 96), (300, 4097), (6, 65536)], ids=str)
@pytest.mark.parametrize("param_dtype", [None, torch.float32], ids=["same", "float32"])
@pytest.mark.parametrize("device", DEVICES)
def test_backward_is_deterministic(spec, device, param_dtype, shape):
    x, params, grad_out = make_inputs(spec, shape, torch.bfloat16, device, param_dtype)
    first = spec.backward_op(grad_out, x, *params, spec.default_eps)
    for _ in range(3):
        again = spec.backward_op(grad_out.clone(), x.clone(), *[p.clone() for p in params], spec.default_eps)
        assert all(torch.equal(a, b) for a, b in zip(first, again, strict=True))


@pytest.mark.parametrize("shape", [(4099, 96), (40, 9000)], ids=str)
def test_cpu_parameter_grads_do_not_depend_on_the_thread_count(spec, shape):
    x, params, grad_out = make_inputs(spec, shape, torch.float32, "cpu")
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one = spec.backward_op(grad_out, x, *params, spec.default_eps)
        torch.set_num_threads(max(2, threads))
        several = spec.backward_op(grad_out, x, *params, spec.default_eps)
    finally:
        torch.set_num_threads(threads)
    assert all(torch.equal(a, b) for a, b in zip(one, several, strict=True))


def torch_layer(spec, *args, **kwargs):
    """The torch.nn layer the operator's layer stands in for."""
    return (nn.LayerNorm if spec.has_bias else nn.RMSNorm)(*args, **kwargs)


@pytest.mark.parametrize("elementwise_affine", [True, False])
@pytest.mark.parametrize("device", DEVICES)
def test_layer_is_a_drop_in_for_torch_nn(spec, device, elementwise_affine):
    ours = spec.layer(48, elementwise_affine=elementwise_affine, device=device)
    theirs = torch_layer(spec, 48, elementwise_affine=elementwise_affine, device=device)
    assert ours.state_dict().keys() == theirs.state_dict().keys()
    assert [name for name, _ in ours.named_parameters()] == [name for name, _ in theirs.named_parameters()]
    if not spec.zero_centered_weight:
        for a, b in zip(ours.parameters(), theirs.parameters(), strict=True):
            assert torch.equal(a, b)  # the same initial values
        theirs.load_state_dict(ours.state_dict())
    with torch.no_grad():
        for p in ours.parameters():
            p.add_(0.1 * torch.randn_like(p))
    if elementwise_affine and not spec.zero_centered_weight:
        theirs.load_state_dict(ours.state_dict())
    x = 3 * torch.randn(16, 48, device=device) + 1
    if not spec.zero_centered_weight:
        torch.testing.assert_close(ours(x), theirs(x))
    x64 = x.double()
    if elementwise_affine:
        params = [p.double() for p in ours.parameters()]
    else:  # the identity scale (and zero shift) the layer passes in their place
        params = [ours._unit_weight.double(), *([ours._zero_bias.double()] if spec.has_bias else [])]
    eps = ours.eps if ours.eps is not None else torch.finfo(x.dtype).eps
    assert_close(ours(x), spec.reference(x64, *params, eps), torch.float32)


def test_layer_refuses_a_shape_over_several_dimensions(spec):
    with pytest.raises(ValueError, match="normalized_shape must be one int"):
        spec.layer((4, 8))


@pytest.mark.parametrize("device", DEVICES)
def test_the_layer_survives_pickling(spec, device):
    layer = spec.layer(32, device=device)
    x = torch.randn(4, 32, device=device)
    again = pickle.loads(pickle.dumps(layer))
    assert type(again) is type(layer)
    torch.testing.assert_close(again(x), layer(x))
    torch.testing.assert_close(copy.deepcopy(layer)(x), layer(x))


def bad_inputs(spec):
    """(what is wrong, x, params, eps, exception, message): what is wrong names the case in failures."""
    n = 8
    x = torch.randn(4, n)
    good = [torch.randn(n) for _ in range(2 if spec.has_bias else 1)]
    cases = [
        ("int x", x.int(), good, 1e-5, TypeError, "x must be float32, float64, float16 or bfloat16"),
        ("0-d x", torch.tensor(1.0), [torch.randn(1)] * len(good), 1e-5, ValueError, "x must have at least"),
        ("short weight", x, [torch.randn(n - 1), *good[1:]], 1e-5, ValueError, "weight must be 1-D"),
        ("2-d weight", x, [torch.randn(1, n), *good[1:]], 1e-5, ValueError, "weight must be 1-D"),
        ("float64 weight", x, [good[0].double(), *good[1:]], 1e-5, TypeError, "weight must have the dtype"),
        ("negative eps", x, good, -1.0, ValueError, "eps must be a finite number >= 0"),
        ("nan eps", x, good, float("nan"), ValueError, "eps must be a finite number >= 0"),
    ]
    if spec.has_bias:
        cases.append(("short bias", x, [good[0], torch.randn(n + 1)], 1e-5, ValueError, "bias must be 1-D"))
        cases.append(("half bias", x, [good[0], good[1].half()], 1e-5, TypeError, "bias must have the dtype"))
        bf16 = x.bfloat16()
        mixed = [good[0], good[1].bfloat16()]  # each allowed alone with a bfloat16 x, not together
        message = "bias must have the dtype of weight"
        cases.append(("bias of another dtype", bf16, mixed, 1e-5, TypeError, message))
    return cases


@pytest.mark.parametrize("fake", [False, True], ids=["kernels", "fake"])
def test_bad_inputs_are_refused_with_a_message_that_names_the_argument(spec, fake):
    for what, x, params, eps, error, message in bad_inputs(spec):
        if fake:
            with torch._subclasses.fake_tensor.FakeTensorMode() as mode:
                x, params = mode.from_tensor(x), [mode.from_tensor(p) for p in params]
                with pytest.raises(error, match=f"{spec.op_name}: {message}"):
                    spec.forward_op(x, *params, eps)
                    pytest.fail(f"accepted: {what}")
        else:
            with pytest.raises(error, match=f"{spec.op_name}: {message}"):
                spec.function(x, *params, eps)
                pytest.fail(f"accepted: {what}")


@pytest.mark.parametrize("device", DEVICES)
def test_bad_grad_out_is_refused(spec, device):
    x, params, grad_out = make_inputs(spec, (4, 8), torch.float32, device)
    for bad, error, message in [
        (grad_out.double(), TypeError, "grad_out must have the same dtype as x"),
        (grad_out[:2], ValueError, "grad_out must have the shape of x"),
    ]:
        with pytest.raises(error, match=f"{spec.op_name}: {message}"):
            spec.backward_op(bad, x, *params, 1e-5)
