"""The bias + activation family, ``y = act(x + bias)`` for x of shape ``[..., N]`` and bias ``[N]``.

What every operator of the family gets in Python, written once for the project: its function (a
typed wrapper of ``torch.ops.<namespace>.<operator>``), its fake kernels (shapes only, so
torch.compile traces the operator without running it), its ``nn.Module`` layer, and its spec for the
family's tests and benchmark. An operator's module (``ops/<operator>.py``) calls :func:`operator`
with its math in PyTorch operators, which becomes its reference.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import torch
from torch import Tensor, nn

from .batching import register_batching_rules
from .checks import CPP_DTYPE_NAMES, check_like, dtype_name
from .operator_names import OperatorNames, backward_name, class_name, overload

Function = Callable[[Tensor, Tensor], Tensor]

FUNCTION_DOC = """Return ``{activation}(x + bias)`` computed in one fused kernel.

Args:
    x: tensor of shape ``[..., N]``, float32, float64, float16 or bfloat16, on the CPU or a CUDA
        device. Non-contiguous tensors are accepted (copied to contiguous memory first).
    bias: tensor of shape ``[N]`` on the device of ``x``, with the dtype of ``x`` or, for a float16 or
        bfloat16 ``x``, float32 (a float32 parameter under ``torch.autocast``).

Returns:
    A new contiguous tensor with the shape, dtype and device of ``x``. Half-precision inputs are
    computed in float32 and rounded once. Under autocast ``x`` is usually the output of a linear
    layer, in the autocast dtype, and so is the result (as ``F.linear`` with a bias gives); ``bias``
    keeps its dtype and gets a gradient of that dtype.

Raises:
    TypeError: ``x`` is not a floating tensor of a supported dtype, ``bias`` has a dtype other than
        those above, or (in the backward) ``grad_out`` has another dtype than ``x``.
    ValueError: ``x`` is 0-d, ``bias`` is not 1-D with ``x.size(-1)`` elements, or ``grad_out`` does
        not have the shape of ``x``.
    RuntimeError: the tensors are not all on one device.

Differentiable once with respect to ``x`` and ``bias``; differentiating the gradient again (double
backward) raises ``NotImplementedError``: use ``reference_{name}`` for that.
"""

LAYER_DOC = """Layer computing ``{activation}(x + bias)`` with a learnable ``bias`` of ``num_features``.

Put it after a linear layer without bias (``nn.Linear(..., bias=False)``) to fuse that layer's bias
add into the activation. The bias starts at zeros; its dtype may stay float32 under autocast.
"""


@dataclasses.dataclass(frozen=True)
class Spec(OperatorNames):
    """What the family's tests and benchmark know of one operator."""

    name: str  # "<namespace>::<operator>"
    activation: str
    function: Function
    reference: Function  # the same math with PyTorch operators: the tests' oracle, the eager baseline
    layer: type[nn.Module]
    # gradcheck evaluates finite differences: x + bias is kept this far from the points where the
    # activation's derivative jumps (0 for relu), where they would disagree with the derivative.
    gradcheck_margin: float = 0.0


# Every operator of the family in this project, by operator name.
SPECS: dict[str, Spec] = {}


class Layer(nn.Module):
    """The family's layer: ``function(x, bias)`` with a learnable bias. Each operator's layer is a
    subclass that names its function."""

    function: Function

    def __init__(
        self,
        num_features: int,
        *,
        device: torch.device | str | None = None,
        dtype: torch.dtype | None = None,
    ) -> None:
        super().__init__()
        self.num_features = num_features
        self.bias = nn.Parameter(torch.empty(num_features, device=device, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        nn.init.zeros_(self.bias)

    def forward(self, x: Tensor) -> Tensor:
        return type(self).function(x, self.bias)

    def extra_repr(self) -> str:
        return f"num_features={self.num_features}"


def _check_inputs(op: str, x: Tensor, bias: Tensor, grad_out: Tensor | None = None) -> None:
    """The checks of csrc/bias_activation/checks.h, with its exceptions and messages, for the fake
    kernels: torch.compile then refuses what the kernels refuse, and a call with a meta tensor (which
    runs the fake kernel) does not return a result the kernels would refuse to compute. A test checks
    that both refuse every bad input alike."""

    same_device = x.device == bias.device
    torch._check(
        same_device,
        lambda: (
            f"{op}: bias must be on the same device as x, but x is on {x.device} and bias is on {bias.device}"
        ),
    )
    supported = x.dtype in CPP_DTYPE_NAMES
    torch._check_type(
        supported,
        lambda: f"{op}: x must be float32, float64, float16 or bfloat16, but got {dtype_name(x.dtype)}",
    )
    half = x.dtype in (torch.float16, torch.bfloat16)
    allowed = bias.dtype == x.dtype or (half and bias.dtype == torch.float32)
    torch._check_type(
        allowed,
        lambda: (
            f"{op}: bias must have the dtype of x ({dtype_name(x.dtype)}) or, for a float16 or "
            f"bfloat16 x, float32, but got {dtype_name(bias.dtype)}"
        ),
    )
    torch._check_value(x.dim() >= 1, lambda: f"{op}: x must have at least 1 dimension, but got a 0-d tensor")
    fits = bias.dim() == 1 and bias.shape[0] == x.shape[-1]
    torch._check_value(
        fits,
        lambda: (
            f"{op}: bias must be 1-D with x.size(-1) = {x.shape[-1]} elements, but got "
            f"shape {list(bias.shape)}"
        ),
    )
    if grad_out is not None:
        check_like(op, "grad_out", x, grad_out)


def _register_fakes(name: str) -> None:
    """Output metadata only, after the kernels' argument checks: the kernels always return
    contiguous tensors, and so do these (new_empty is contiguous even for a strided x)."""
    op_name = name.split("::")[1]

    @torch.library.register_fake(name)
    def _(x: Tensor, bias: Tensor) -> Tensor:
        _check_inputs(op_name, x, bias)
        return x.new_empty(x.shape)

    @torch.library.register_fake(backward_name(name))
    def _(grad_out: Tensor, x: Tensor, bias: Tensor) -> tuple[Tensor, Tensor]:
        _check_inputs(op_name, x, bias, grad_out)
        return x.new_empty(x.shape), bias.new_empty(bias.shape)


REFERENCE_DOC = """``{activation}(x + bias)`` composed from PyTorch operators: the same math as the fused
kernels (csrc/{name}.h), the tests' oracle and the benchmark's eager baseline; differentiable any
number of times."""


def operator(
    name: str, activation: str, reference: Function, *, gradcheck_margin: float = 0.0
) -> tuple[Function, type[Layer]]:
    """Make the operator ``name`` ("<namespace>::<operator>", defined in C++) usable from Python.

    ``reference`` (``reference_<operator>``) is the operator's math in PyTorch operators; it gets
    a docstring if it has none. Returns the operator's function and its layer class, which the
    operator's module binds to ``<operator>`` and its name in CamelCase: both belong to that module
    (the module of ``reference``), so that pickling a model finds the layer there. Registers the
    fake kernels and the operator's spec in SPECS, which the family's tests and benchmark read.
    """
    _register_fakes(name)
    register_batching_rules(name)
    op_name = name.split("::")[1]
    module = reference.__module__
    op = overload(name)
    if reference.__doc__ is None:
        reference.__doc__ = REFERENCE_DOC.format(activation=activation, name=op_name)

    def function(x: Tensor, bias: Tensor) -> Tensor:
        return op(x, bias)

    function.__name__ = function.__qualname__ = op_name
    function.__module__ = module
    function.__doc__ = FUNCTION_DOC.format(activation=activation, name=op_name)
    namespace_of_layer = {
        "__doc__": LAYER_DOC.format(activation=activation),
        "__module__": module,
        "function": staticmethod(function),
    }
    layer = type(class_name(op_name), (Layer,), namespace_of_layer)
    SPECS[op_name] = Spec(name, activation, function, reference, layer, gradcheck_margin)
    return function, layer
