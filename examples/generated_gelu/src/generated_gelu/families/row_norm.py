"""The row normalization family: RMSNorm and LayerNorm over the last dimension of x, ``[..., N]``.

What every operator of the family gets in Python, written once for the project: its function (a
typed wrapper of ``torch.ops.<namespace>.<operator>``, whose default ``eps`` comes from the C++
schema), its fake kernels (shapes only, so torch.compile traces the operator without running it), its
``nn.Module`` layer (a drop-in for ``torch.nn.RMSNorm`` or ``torch.nn.LayerNorm`` over the last
dimension: the same arguments, parameter names and initial values), and its spec for the family's
tests and benchmark. An operator's module (``ops/<operator>.py``) calls :func:`operator` with its
math in PyTorch operators, which becomes its reference.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Callable

import torch
from torch import Tensor, nn

from .bias_activation import class_name
from .checks import CPP_DTYPE_NAMES, check_grad_out, dtype_name

NORMS = ("rms_norm", "layer_norm")

FUNCTION_DOC = """Return the {title} of ``x`` over its last dimension, computed in one fused kernel.

``{formula}``, with the statistics of each row in float32 (float64 for a float64 ``x``).

Args:
    x: tensor of shape ``[..., N]``, float32, float64, float16 or bfloat16, on the CPU or a CUDA
        device. Non-contiguous tensors are accepted (copied to contiguous memory first).
{parameters}    eps: added to the variance before the square root; {default_eps} by default.

Returns:
    A new contiguous tensor with the shape, dtype and device of ``x``.

Raises:
    TypeError: ``x`` is not a floating tensor of a supported dtype, or a parameter has a dtype other
        than that of ``x`` or (for a float16 or bfloat16 ``x``) float32.
    ValueError: ``x`` is 0-d, a parameter is not 1-D with ``x.size(-1)`` elements, or ``eps`` is
        negative or not finite.
    RuntimeError: the tensors are not all on one device.

Differentiable once with respect to ``x`` and the parameters; differentiating the gradient again
(double backward) raises ``NotImplementedError``: use ``reference_{name}`` for that.
"""

PARAMETER_DOC = """    {name}: tensor of shape ``[N]`` on the device of ``x``, with the dtype of ``x`` or,
        for a float16 or bfloat16 ``x``, float32 (a float32 parameter under ``torch.autocast``);
        its gradient has its dtype.
"""

FORMULAS = {
    ("rms_norm", False): "y = x / sqrt(mean(x^2) + eps) * weight",
    ("rms_norm", True): "y = x / sqrt(mean(x^2) + eps) * (1 + weight)",
    ("layer_norm", False): "y = (x - mean(x)) / sqrt(var(x) + eps) * weight + bias",
}


@dataclasses.dataclass(frozen=True)
class Spec:
    """What the family's tests and benchmark know of one operator."""

    name: str  # "<namespace>::<operator>"
    norm: str  # "rms_norm" or "layer_norm"
    zero_centered_weight: bool  # y = x_hat * (1 + weight)
    default_eps: float
    function: Callable[..., Tensor]
    reference: Callable[..., Tensor]  # the same math with PyTorch operators: the oracle and eager baseline
    layer: type[nn.Module]

    @property
    def op_name(self) -> str:
        return self.name.split("::")[1]

    @property
    def has_bias(self) -> bool:
        return self.norm == "layer_norm"

    @property
    def formula(self) -> str:
        return FORMULAS[self.norm, self.zero_centered_weight]

    @property
    def forward_op(self) -> torch._ops.OpOverload:
        namespace, op_name = self.name.split("::")
        return getattr(getattr(torch.ops, namespace), op_name).default

    @property
    def backward_op(self) -> torch._ops.OpOverload:
        namespace, op_name = self.name.split("::")
        return getattr(getattr(torch.ops, namespace), f"{op_name}_backward").default


# Every operator of the family in this project, by operator name.
SPECS: dict[str, Spec] = {}


def _last_dimension(normalized_shape: int | tuple[int, ...] | list[int] | torch.Size) -> int:
    """N from the layers' normalized_shape: an int or a sequence of one int (the last dimension)."""
    if isinstance(normalized_shape, numbers.Integral):
        return int(normalized_shape)
    shape = tuple(normalized_shape)
    if len(shape) != 1:
        raise ValueError(
            "normalized_shape must be one int (the last dimension, which this operator normalizes), "
            f"but got {shape}"
        )
    return int(shape[0])


class RMSNormLayer(nn.Module):
    """The family's RMSNorm layer, with the arguments, parameter and initial value of
    ``torch.nn.RMSNorm`` over the last dimension. Each operator's layer is a subclass that names its
    function. ``eps=None`` takes ``torch.finfo(x.dtype).eps``, as ``torch.nn.RMSNorm`` does."""

    function: Callable[..., Tensor]
    zero_centered_weight: bool = False

    def __init__(
        self,
        normalized_shape: int | tuple[int, ...] | list[int] | torch.Size,
        eps: float | None = None,
        elementwise_affine: bool = True,
        *,
        device: torch.device | str | None = None,
        dtype: torch.dtype | None = None,
    ) -> None:
        super().__init__()
        n = _last_dimension(normalized_shape)
        self.normalized_shape = (n,)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = nn.Parameter(torch.empty(n, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
            # The scale the kernels multiply by without a learnable weight: 1 (0 when zero-centred).
            unit = torch.zeros if self.zero_centered_weight else torch.ones
            self.register_buffer("_unit_weight", unit(n, device=device, dtype=dtype), persistent=False)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.weight is not None:
            # The identity scale: 1, or 0 for a weight that multiplies as (1 + weight).
            (nn.init.zeros_ if self.zero_centered_weight else nn.init.ones_)(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        eps = torch.finfo(x.dtype).eps if self.eps is None else self.eps
        weight = self.weight if self.weight is not None else self._unit_weight
        return type(self).function(x, weight, eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class LayerNormLayer(nn.Module):
    """The family's LayerNorm layer, with the arguments, parameters and initial values of
    ``torch.nn.LayerNorm`` over the last dimension. Each operator's layer is a subclass that names its
    function."""

    function: Callable[..., Tensor]

    def __init__(
        self,
        normalized_shape: int | tuple[int, ...] | list[int] | torch.Size,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        *,
        device: torch.device | str | None = None,
        dtype: torch.dtype | None = None,
    ) -> None:
        super().__init__()
        n = _last_dimension(normalized_shape)
        self.normalized_shape = (n,)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        factory = {"device": device, "dtype": dtype}
        if elementwise_affine:
            self.weight = nn.Parameter(torch.empty(n, **factory))
            self.bias = nn.Parameter(torch.empty(n, **factory)) if bias else None
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        if self.weight is None:
            self.register_buffer("_unit_weight", torch.ones(n, **factory), persistent=False)
        if self.bias is None:
            self.register_buffer("_zero_bias", torch.zeros(n, **factory), persistent=False)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        if self.weight is not None:
            nn.init.ones_(self.weight)
        if self.bias is not None:
            nn.init.zeros_(self.bias)

    def forward(self, x: Tensor) -> Tensor:
        weight = self.weight if self.weight is not None else self._unit_weight
        bias = self.bias if self.bias is not None else self._zero_bias
        return type(self).function(x, weight, bias, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


def _check_parameter(op: str, name: str, x: Tensor, p: Tensor) -> None:
    same_device = p.device == x.device
    torch._check(
        same_device,
        lambda: (
            f"{op}: {name} must be on the same device as x, but x is on {x.device} and {name} is on "
            f"{p.device}"
        ),
    )
    half = x.dtype in (torch.float16, torch.bfloat16)
    allowed = p.dtype == x.dtype or (half and p.dtype == torch.float32)
    torch._check_type(
        allowed,
        lambda: (
            f"{op}: {name} must have the dtype of x ({dtype_name(x.dtype)}) or, for a float16 or "
            f"bfloat16 x, float32, but got {dtype_name(p.dtype)}"
        ),
    )
    fits = p.dim() == 1 and p.shape[0] == x.shape[-1]
    torch._check_value(
        fits,
        lambda: (
            f"{op}: {name} must be 1-D with x.size(-1) = {x.shape[-1]} elements, but got shape "
            f"{list(p.shape)}"
        ),
    )


def _check_inputs(
    op: str, x: Tensor, weight: Tensor, bias: Tensor | None, eps: float, grad_out: Tensor | None = None
) -> None:
    """The checks of csrc/row_norm/checks.h, with its exceptions and messages, for the fake kernels
    (a test checks that both refuse every bad input alike)."""
    supported = x.dtype in CPP_DTYPE_NAMES
    torch._check_type(
        supported,
        lambda: f"{op}: x must be float32, float64, float16 or bfloat16, but got {dtype_name(x.dtype)}",
    )
    torch._check_value(x.dim() >= 1, lambda: f"{op}: x must have at least 1 dimension, but got a 0-d tensor")
    _check_parameter(op, "weight", x, weight)
    if bias is not None:
        _check_parameter(op, "bias", x, bias)
        torch._check_type(
            bias.dtype == weight.dtype,
            lambda: (
                f"{op}: bias must have the dtype of weight ({dtype_name(weight.dtype)}), "
                f"but got {dtype_name(bias.dtype)}"
            ),
        )
    finite = eps == eps and abs(eps) != float("inf") and eps >= 0
    torch._check_value(finite, lambda: f"{op}: eps must be a finite number >= 0, but got {eps}")
    if grad_out is not None:
        check_grad_out(op, x, grad_out)


def _register_fakes(name: str, has_bias: bool, default_eps: float) -> None:
    """Output metadata only, after the kernels' argument checks: the kernels always return
    contiguous tensors, and so do these; the parameters' gradients have the parameters' dtypes."""
    op_name = name.split("::")[1]
    if has_bias:

        @torch.library.register_fake(name)
        def _(x: Tensor, weight: Tensor, bias: Tensor, eps: float = default_eps) -> Tensor:
            _check_inputs(op_name, x, weight, bias, eps)
            return x.new_empty(x.shape)

        @torch.library.register_fake(f"{name}_backward")
        def _(grad_out: Tensor, x: Tensor, weight: Tensor, bias: Tensor, eps: float) -> tuple[Tensor, ...]:
            _check_inputs(op_name, x, weight, bias, eps, grad_out)
            return x.new_empty(x.shape), weight.new_empty(weight.shape), bias.new_empty(bias.shape)

    else:

        @torch.library.register_fake(name)
        def _(x: Tensor, weight: Tensor, eps: float = default_eps) -> Tensor:
            _check_inputs(op_name, x, weight, None, eps)
            return x.new_empty(x.shape)

        @torch.library.register_fake(f"{name}_backward")
        def _(grad_out: Tensor, x: Tensor, weight: Tensor, eps: float) -> tuple[Tensor, Tensor]:
            _check_inputs(op_name, x, weight, None, eps, grad_out)
            return x.new_empty(x.shape), weight.new_empty(weight.shape)


REFERENCE_DOC = """The {title} of ``x`` over its last dimension composed from PyTorch operators: the same
math as the fused kernels (csrc/{name}.h), the tests' oracle and the benchmark's eager baseline;
differentiable any number of times."""


def operator(
    name: str, norm: str, reference: Callable[..., Tensor], *, zero_centered_weight: bool = False
) -> tuple[Callable[..., Tensor], type[nn.Module]]:
    """Make the operator ``name`` ("<namespace>::<operator>", defined in C++) usable from Python.

    ``norm`` is "rms_norm" or "layer_norm"; ``reference`` (``reference_<operator>``) the operator's
    math in PyTorch operators. Returns the operator's function and its layer class, which the
    operator's module binds to ``<operator>`` and its name in CamelCase (both belong to that module,
    so that pickling a model finds the layer there). Registers the fake kernels and the operator's
    spec in SPECS, which the family's tests and benchmark read.
    """
    if norm not in NORMS:
        raise ValueError(f"norm must be one of {NORMS}, but got {norm!r}")
    has_bias = norm == "layer_norm"
    namespace, op_name = name.split("::")
    module = reference.__module__
    op = getattr(getattr(torch.ops, namespace), op_name).default
    # The default of eps, as the C++ schema (csrc/<operator>.h) states it.
    default_eps = float(op._schema.arguments[-1].default_value)
    _register_fakes(name, has_bias, default_eps)
    title = "RMSNorm" if norm == "rms_norm" else "LayerNorm"
    if reference.__doc__ is None:
        reference.__doc__ = REFERENCE_DOC.format(title=title, name=op_name)

    if has_bias:

        def function(x: Tensor, weight: Tensor, bias: Tensor, eps: float = default_eps) -> Tensor:
            return op(x, weight, bias, eps)

    else:

        def function(x: Tensor, weight: Tensor, eps: float = default_eps) -> Tensor:
            return op(x, weight, eps)

    parameter_names = ("weight", "bias") if has_bias else ("weight",)
    parameters = "".join(PARAMETER_DOC.format(name=p) for p in parameter_names)
    function.__name__ = function.__qualname__ = op_name
    function.__module__ = module
    function.__doc__ = FUNCTION_DOC.format(
        title=title,
        formula=FORMULAS[norm, zero_centered_weight],
        parameters=parameters,
        default_eps=default_eps,
        name=op_name,
    )
    base = LayerNormLayer if has_bias else RMSNormLayer
    namespace_of_layer = {
        "__doc__": f"Layer computing {op_name}: {FORMULAS[norm, zero_centered_weight]}.\n\n{base.__doc__}",
        "__module__": module,
        "function": staticmethod(function),
        "zero_centered_weight": zero_centered_weight,
    }
    layer = type(class_name(op_name), (base,), namespace_of_layer)
    SPECS[op_name] = Spec(name, norm, zero_centered_weight, default_eps, function, reference, layer)
    return function, layer
