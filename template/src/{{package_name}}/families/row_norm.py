"""The row normalization family: RMSNorm and LayerNorm over the last dimension of x, ``[..., N]``,
optionally after a residual add (the operator then takes ``residual`` too and also returns
``x + residual``, the new residual stream).

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

from .batching import register_batching_rules
from .checks import CPP_DTYPE_NAMES, check_like, dtype_name
from .operator_names import OperatorNames, backward_name, class_name, overload

NORMS = ("rms_norm", "layer_norm")

# Test settings that the CUDA kernels (csrc/row_norm/cuda.cuh) read from the environment at each
# call: a cap on the shared memory a block may take, in bytes (to take, on a GPU with more, the path
# that GPUs with less take; read where a block could stage its rows: the backward's, and the
# forward's of rows split over a cluster), and one on the backward's row groups (at least 1; so that
# each walks many rows, as on a smaller GPU or with many more rows), and one on the blocks of a
# cluster the GPU places (at least 1; as on a GPU or MIG slice whose GPCs have fewer multiprocessors
# than a cluster needs: rows that would be split over a larger cluster take a smaller one where
# their kernels have one, else the kernels without clusters). Digits only; a cap above the most
# the kernels allow (the shared memory the GPU gives a block, its row groups, 8 blocks a cluster)
# caps nothing. And a switch: 1 keeps the backward's float32 workspace where the backward would go
# without it (so that the tests compare the two on one GPU); 0, as unset, lets it go without.
SHARED_MEMORY_LIMIT_VARIABLE = "ROW_NORM_SHARED_MEMORY_LIMIT"
BACKWARD_GROUPS_VARIABLE = "ROW_NORM_BACKWARD_GROUPS"
CLUSTER_LIMIT_VARIABLE = "ROW_NORM_CLUSTER_LIMIT"
WORKSPACE_VARIABLE = "ROW_NORM_WORKSPACE"

FUNCTION_DOC = """Return the {title} of ``{normalized}`` over its last dimension, in one fused kernel.

``{formula}``, with the statistics of each row in float32 (float64 for a float64 ``x``).

Args:
    x: tensor of shape ``[..., N]``, float32, float64, float16 or bfloat16, on the CPU or a CUDA
        device. Non-contiguous tensors are accepted (copied to contiguous memory first).
{parameters}    eps: added to the variance before the square root; {default_eps} by default.

Returns:
    {returns}

Raises:
    TypeError: ``x`` is not a floating tensor of a supported dtype, or a parameter has a dtype other
        than that of ``x`` or (for a float16 or bfloat16 ``x``) float32.
    ValueError: ``x`` is 0-d, a parameter is not 1-D with ``x.size(-1)`` elements, or ``eps`` is
        negative or not finite.
    RuntimeError: the tensors are not all on one device.

Differentiable once with respect to every tensor argument; differentiating the gradient again
(double backward) raises ``NotImplementedError``: use ``reference_{name}`` for that.
"""

PARAMETER_DOC = """    {name}: tensor of shape ``[N]`` on the device of ``x``, with the dtype of ``x`` or,
        for a float16 or bfloat16 ``x``, float32 (a float32 parameter under ``torch.autocast``);
        its gradient has its dtype.
"""

RESIDUAL_DOC = """    residual: tensor with the shape, dtype and device of ``x``, added to ``x`` first.
"""

RETURNS = {
    False: "A new contiguous tensor with the shape, dtype and device of ``x``.",
    True: (
        "``(out, residual_out)``: the norm of ``h = x + residual``, and ``h`` itself (rounded to the\n"
        "    dtype of ``x``: the new residual stream), new contiguous tensors with the shape, dtype and\n"
        "    device of ``x``."
    ),
}


def formula(norm: str, zero_centered_weight: bool, residual_add: bool) -> str:
    """The operator's math in one line."""
    h = "h" if residual_add else "x"
    scale = "(1 + weight)" if zero_centered_weight else "weight"
    if norm == "rms_norm":
        math = f"y = {h} / sqrt(mean({h}^2) + eps) * {scale}"
    else:
        math = f"y = ({h} - mean({h})) / sqrt(var({h}) + eps) * {scale} + bias"
    return f"h = x + residual, {math}" if residual_add else math


@dataclasses.dataclass(frozen=True)
class Spec(OperatorNames):
    """What the family's tests and benchmark know of one operator."""

    name: str  # "<namespace>::<operator>"
    norm: str  # "rms_norm" or "layer_norm"
    zero_centered_weight: bool  # y = x_hat * (1 + weight)
    residual_add: bool  # (x, residual, ...) -> (norm(x + residual), x + residual)
    default_eps: float
    function: Callable[..., Tensor]
    reference: Callable[..., Tensor]  # the same math with PyTorch operators: the oracle and eager baseline
    layer: type[nn.Module]

    @property
    def has_bias(self) -> bool:
        return self.norm == "layer_norm"

    @property
    def formula(self) -> str:
        return formula(self.norm, self.zero_centered_weight, self.residual_add)


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


def _default_eps(dtype: torch.dtype) -> float:
    """``torch.nn.RMSNorm``'s eps=None: the machine epsilon of the type it computes in (float32 for
    float16 and bfloat16, as the kernels do too)."""
    return torch.finfo(torch.float64 if dtype == torch.float64 else torch.float32).eps


def _apply(
    layer: nn.Module,
    x: Tensor,
    residual: Tensor | None,
    parameters: tuple[Tensor, ...],
    eps: float | None,
    x_name: str = "x",
) -> Tensor | tuple[Tensor, Tensor]:
    """The layer's operator on x (and residual, where it adds one), its parameters and eps (None:
    the default of the dtype it computes in). x_name: the name of the layer's forward argument for x
    (torch.nn's: ``x`` in RMSNorm, ``input`` in LayerNorm)."""
    function = type(layer).function
    # x's last dimension against the layer's own, so that a wrong width names the input (the
    # operator's own check would name the layer's weight, sized to that width).
    # (A plain check, not torch._check_value: torch.compile takes no message closure over x.) Not
    # while torch.jit.trace records the layer: the trace fixes the outcome for its inputs' shapes, and
    # the check's comparison of a traced size would warn that it does (TracerWarning); the operator
    # still refuses a wrong width when the trace runs, naming the weight.
    n = layer.normalized_shape[0]
    if not torch.jit.is_tracing() and (x.dim() < 1 or x.size(-1) != n):
        raise ValueError(
            f"{type(layer).__name__}: {x_name} (the input) must have {n} elements in its last dimension "
            f"(the layer's normalized_shape), but got shape {list(x.shape)}"
        )
    if x.dtype == torch.float64:
        # A float64 x with a layer's float32 parameters computes in float64, as torch.nn.RMSNorm does
        # (the operator itself takes parameters of x's dtype, or float32 for a 16-bit x).
        parameters = tuple(p.to(torch.float64) for p in parameters)
    if not layer.residual_add:
        if residual is not None:
            raise TypeError(f"{type(layer).__name__} takes no residual: its operator adds none")
        return function(x, *parameters, _default_eps(x.dtype) if eps is None else eps)
    if residual is None:
        # vLLM's convention for a model's first norm, where there is no residual stream yet: the norm
        # of x alone (computed as x + 0, one more read than a norm without the add).
        residual = torch.zeros_like(x)
        return function(x, residual, *parameters, _default_eps(x.dtype) if eps is None else eps)[0]
    if residual.dtype != x.dtype:
        # As x + residual would: in the wider dtype (under autocast, a float32 residual stream and a
        # sublayer's bfloat16 output add in float32), and so the parameters where they are narrower.
        # The operator itself takes one dtype.
        dtype = torch.promote_types(x.dtype, residual.dtype)
        x, residual = x.to(dtype), residual.to(dtype)
        if dtype in (torch.float32, torch.float64):
            parameters = tuple(p.to(dtype) for p in parameters)
    return function(x, residual, *parameters, _default_eps(x.dtype) if eps is None else eps)


# _RMSNorm.forward: the x dtypes whose layer takes a weight of any floating dtype, in float32 (a
# weight of another kind is left to the operator to refuse, naming the argument).
_WEIGHT_TO_FLOAT32 = (torch.float32, torch.float16, torch.bfloat16)


RESIDUAL_FORWARD_DOC = """

    With a residual add, ``forward(x, residual)`` returns ``(out, residual_out)``: the norm of
    ``x + residual`` and the sum itself, as vLLM's ``RMSNorm.forward(x, residual)`` does, in the
    wider dtype of the two where they differ (as ``x + residual`` would); ``forward(x)`` (no
    residual stream yet, as at a model's first norm) returns the norm of ``x``. The first argument's
    name is torch.nn's: ``x`` in the RMSNorm layers, ``input`` in the LayerNorm layers."""


class _RMSNorm(nn.Module):
    """What the family's RMSNorm layers share (RMSNormLayer, ZeroCenteredRMSNormLayer)."""

    function: Callable[..., Tensor]
    zero_centered_weight: bool = False
    residual_add: bool = False

    def __init__(
        self,
        normalized_shape: int | tuple[int, ...] | list[int] | torch.Size,
        eps: float | None = None,
        elementwise_affine: bool = True,
        device: torch.device | str | None = None,
        dtype: torch.dtype | None = None,
    ) -> None:
        # torch.nn.RMSNorm.__init__'s state, set here: RMSNormLayer is an nn.RMSNorm, the zero-centred
        # layer is not (nn.Module.__init__ by name, as this class precedes nn.RMSNorm in the former's
        # method order).
        nn.Module.__init__(self)
        self.normalized_shape = (_last_dimension(normalized_shape),)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = nn.Parameter(torch.empty(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        # The identity scale: 1, or 0 for a weight that multiplies as (1 + weight).
        if self.weight is not None:
            (nn.init.zeros_ if self.zero_centered_weight else nn.init.ones_)(self.weight)

    def forward(self, x: Tensor, residual: Tensor | None = None) -> Tensor | tuple[Tensor, Tensor]:
        weight = self.weight
        if weight is None:
            # The unit scale (0 when zero-centred) in x's dtype, exact in any, as torch.nn.RMSNorm takes
            # any x without a weight. Made here, not kept: a layer without parameters has no state on
            # any device, so no path of initialization (to_empty(), load_state_dict(assign=True) from
            # the meta device) can leave it behind; made from x, so that a traced or exported layer
            # does not keep the device it was traced on.
            weight = x.new_full(self.normalized_shape, 0.0 if self.zero_centered_weight else 1.0)
        taken = (x.dtype, torch.float32)  # the weights the operator takes: x's dtype, or float32
        if x.dtype in _WEIGHT_TO_FLOAT32 and weight.is_floating_point() and weight.dtype not in taken:
            # Another floating dtype: in float32, as torch.nn.RMSNorm takes any such pair and gives y
            # in x's dtype (a bfloat16 weight with a float32 x under CPU autocast; its gradient in the
            # weight's dtype).
            weight = weight.float()
        return _apply(self, x, residual, (weight,), self.eps)

    def extra_repr(self) -> str:
        return nn.RMSNorm.extra_repr(self)  # the installed torch's form


class RMSNormLayer(_RMSNorm, nn.RMSNorm):
    """The family's RMSNorm layer: a ``torch.nn.RMSNorm`` over the last dimension (a subclass, so that
    code that sorts a model's modules by type takes it for one), with its arguments (in its order,
    each positional too), parameter, initial value and state, computed by the operator. Each
    operator's layer is a subclass that names its function. ``eps=None`` takes the machine epsilon of
    the type the norm computes in (float32 for a float16 or bfloat16 ``x``), as ``torch.nn.RMSNorm``
    does."""


class ZeroCenteredRMSNormLayer(_RMSNorm):
    """The family's RMSNorm layer with a zero-centred weight (Gemma's): rows scaled by
    ``1 + weight``, the weight 0 at first; otherwise ``torch.nn.RMSNorm``'s arguments (in its order,
    each positional too), parameter name and state over the last dimension, computed by the operator.
    Not a ``torch.nn.RMSNorm``, whose weight scales as it is: code that sets every nn.RMSNorm's weight
    to 1 would double this layer's output. Each operator's layer is a subclass that names its
    function. ``eps=None`` takes the machine epsilon of the type the norm computes in, as
    ``torch.nn.RMSNorm`` does."""

    zero_centered_weight = True


class LayerNormLayer(nn.LayerNorm):
    """The family's LayerNorm layer: a ``torch.nn.LayerNorm`` over the last dimension (a subclass, so
    that code that sorts a model's modules by type takes it for one), with its arguments (in its
    order, each positional too), parameters, initial values and state, computed by the operator. Each
    operator's layer is a subclass that names its function."""

    function: Callable[..., Tensor]
    residual_add: bool = False

    def __init__(
        self,
        normalized_shape: int | tuple[int, ...] | list[int] | torch.Size,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        device: torch.device | str | None = None,
        dtype: torch.dtype | None = None,
    ) -> None:
        super().__init__((_last_dimension(normalized_shape),), eps, elementwise_affine, bias, device, dtype)

    def forward(self, input: Tensor, residual: Tensor | None = None) -> Tensor | tuple[Tensor, Tensor]:
        # `input`, as torch.nn.LayerNorm.forward names it (a call or hook that passes it by name).
        # Without learnable parameters, the unit scale and zero shift in the input's dtype (exact in
        # any), as torch.nn.LayerNorm takes any input without them; without a bias alone, a zero shift
        # in the weight's dtype (a float32 weight with a bfloat16 input under autocast). Made here from
        # the input, not kept, as the RMSNorm layers' unit scale is.
        weight = self.weight if self.weight is not None else input.new_ones(self.normalized_shape)
        bias = self.bias
        if bias is None:
            bias = input.new_zeros(self.normalized_shape, dtype=weight.dtype)
        return _apply(self, input, residual, (weight, bias), self.eps, x_name="input")


def _check_parameter(op: str, name: str, x_name: str, x: Tensor, p: Tensor) -> None:
    same_device = p.device == x.device
    torch._check(
        same_device,
        lambda: (
            f"{op}: {name} must be on the same device as {x_name}, but {x_name} is on {x.device} and "
            f"{name} is on {p.device}"
        ),
    )
    half = x.dtype in (torch.float16, torch.bfloat16)
    allowed = p.dtype == x.dtype or (half and p.dtype == torch.float32)
    torch._check_type(
        allowed,
        lambda: (
            f"{op}: {name} must have the dtype of {x_name} ({dtype_name(x.dtype)}) or, for a float16 or "
            f"bfloat16 {x_name}, float32, but got {dtype_name(p.dtype)}"
        ),
    )
    fits = p.dim() == 1 and p.shape[0] == x.shape[-1]
    torch._check_value(
        fits,
        lambda: (
            f"{op}: {name} must be 1-D with {x_name}.size(-1) = {x.shape[-1]} elements, but got shape "
            f"{list(p.shape)}"
        ),
    )


def _check_given(op: str, names: list[str], arguments: dict) -> None:
    """check_given of csrc/row_norm/checks.h: the schema's (non-optional) tensors are not None."""
    for name in names:
        given = arguments.get(name) is not None
        torch._check_type(given, lambda name=name: f"{op}: {name} must be a tensor, but got None")


def _check_arguments(op: str, x_name: str, arguments: dict, default_eps: float) -> None:
    """The checks of csrc/row_norm/checks.h (check_arguments), with its exceptions and messages, for the
    fake kernels (a test checks that both refuse every bad input alike). ``arguments`` by the
    schema's names; x_name names the normalized tensor (the backward's residual_out where the
    operator adds a residual)."""
    x, weight, bias = arguments[x_name], arguments["weight"], arguments.get("bias")
    eps = arguments.get("eps", default_eps)
    supported = x.dtype in CPP_DTYPE_NAMES
    torch._check_type(
        supported,
        lambda: (
            f"{op}: {x_name} must be float32, float64, float16 or bfloat16, but got {dtype_name(x.dtype)}"
        ),
    )
    torch._check_value(
        x.dim() >= 1, lambda: f"{op}: {x_name} must have at least 1 dimension, but got a 0-d tensor"
    )
    _check_parameter(op, "weight", x_name, x, weight)
    if bias is not None:
        _check_parameter(op, "bias", x_name, x, bias)
        torch._check_type(
            bias.dtype == weight.dtype,
            lambda: (
                f"{op}: bias must have the dtype of weight ({dtype_name(weight.dtype)}), "
                f"but got {dtype_name(bias.dtype)}"
            ),
        )
    finite = eps == eps and abs(eps) != float("inf") and eps >= 0
    torch._check_value(finite, lambda: f"{op}: eps must be a finite number >= 0, but got {eps}")
    for name in ("residual", "grad_out", "grad_residual_out"):
        if arguments.get(name) is not None:
            check_like(op, name, x, arguments[name], x_name)


def _register_fakes(name: str, residual_add: bool, default_eps: float) -> None:
    """Output metadata only, after the kernels' argument checks: the kernels always return
    contiguous tensors, and so do these; the parameters' gradients have the parameters' dtypes.
    One fake for each operator, whichever arguments its schema has (bound by their names)."""
    op_name = name.split("::")[1]
    forward_schema = overload(name)._schema
    backward_schema = overload(backward_name(name))._schema
    forward_names = [a.name for a in forward_schema.arguments]
    backward_names = [a.name for a in backward_schema.arguments]
    # The tensors each schema requires (Tensor, not Tensor?), in its order, which C++ checks them in.
    forward_given = [a.name for a in forward_schema.arguments if str(a.type) == "Tensor"]
    backward_given = [a.name for a in backward_schema.arguments if str(a.type) == "Tensor"]

    @torch.library.register_fake(name)
    def _(*args: object, **kwargs: object) -> Tensor | tuple[Tensor, Tensor]:
        arguments = {**dict(zip(forward_names, args, strict=False)), **kwargs}
        _check_given(op_name, forward_given, arguments)
        _check_arguments(op_name, "x", arguments, default_eps)
        x = arguments["x"]
        return (x.new_empty(x.shape), x.new_empty(x.shape)) if residual_add else x.new_empty(x.shape)

    @torch.library.register_fake(backward_name(name))
    def _(*args: object, **kwargs: object) -> tuple[Tensor, ...]:
        arguments = {**dict(zip(backward_names, args, strict=False)), **kwargs}
        x_name = "residual_out" if residual_add else "x"
        _check_given(op_name, backward_given, arguments)
        _check_arguments(op_name, x_name, arguments, default_eps)
        grads = [
            arguments[x_name],
            arguments["weight"],
            *([arguments["bias"]] if "bias" in arguments else []),
        ]
        return tuple(t.new_empty(t.shape) for t in grads)


REFERENCE_DOC = """The {title} of ``{normalized}`` over its last dimension composed from PyTorch
operators: the same math as the fused kernels (csrc/{name}.h), the tests' oracle and the benchmark's
eager baseline; differentiable any number of times."""


def operator(
    name: str,
    norm: str,
    reference: Callable[..., Tensor],
    *,
    zero_centered_weight: bool = False,
    residual_add: bool = False,
) -> tuple[Callable[..., Tensor], type[nn.Module]]:
    """Make the operator ``name`` ("<namespace>::<operator>", defined in C++) usable from Python.

    ``norm`` is "rms_norm" or "layer_norm"; ``reference`` (``reference_<operator>``) the operator's
    math in PyTorch operators; ``residual_add``: the operator adds ``residual`` to ``x`` first and
    returns the sum too. Returns the operator's function and its layer class, which the operator's
    module binds to ``<operator>`` and its name in CamelCase (both belong to that module, so that
    pickling a model finds the layer there). Registers the fake kernels and the operator's spec in
    SPECS, which the family's tests and benchmark read.
    """
    if norm not in NORMS:
        raise ValueError(f"norm must be one of {NORMS}, but got {norm!r}")
    has_bias = norm == "layer_norm"
    op_name = name.split("::")[1]
    module = reference.__module__
    op = overload(name)
    # The default of eps, as the C++ schema (csrc/<operator>.h) states it.
    default_eps = float(op._schema.arguments[-1].default_value)
    _register_fakes(name, residual_add, default_eps)
    register_batching_rules(name)
    title = "RMSNorm" if norm == "rms_norm" else "LayerNorm"
    normalized = "x + residual" if residual_add else "x"
    if reference.__doc__ is None:
        reference.__doc__ = REFERENCE_DOC.format(title=title, normalized=normalized, name=op_name)

    if has_bias and residual_add:

        def function(
            x: Tensor, residual: Tensor, weight: Tensor, bias: Tensor, eps: float = default_eps
        ) -> tuple[Tensor, Tensor]:
            return op(x, residual, weight, bias, eps)

    elif residual_add:

        def function(
            x: Tensor, residual: Tensor, weight: Tensor, eps: float = default_eps
        ) -> tuple[Tensor, Tensor]:
            return op(x, residual, weight, eps)

    elif has_bias:

        def function(x: Tensor, weight: Tensor, bias: Tensor, eps: float = default_eps) -> Tensor:
            return op(x, weight, bias, eps)

    else:

        def function(x: Tensor, weight: Tensor, eps: float = default_eps) -> Tensor:
            return op(x, weight, eps)

    parameter_names = ("weight", "bias") if has_bias else ("weight",)
    parameters = (RESIDUAL_DOC if residual_add else "") + "".join(
        PARAMETER_DOC.format(name=p) for p in parameter_names
    )
    math = formula(norm, zero_centered_weight, residual_add)
    function.__name__ = function.__qualname__ = op_name
    function.__module__ = module
    function.__doc__ = FUNCTION_DOC.format(
        title=title,
        normalized=normalized,
        formula=math,
        parameters=parameters,
        default_eps=default_eps,
        returns=RETURNS[residual_add],
        name=op_name,
    )
    rms_norm_layer = ZeroCenteredRMSNormLayer if zero_centered_weight else RMSNormLayer
    base = LayerNormLayer if has_bias else rms_norm_layer
    namespace_of_layer = {
        "__doc__": f"Layer computing {op_name}: {math}.\n\n{base.__doc__}"
        + (RESIDUAL_FORWARD_DOC if residual_add else ""),
        "__module__": module,
        "function": staticmethod(function),
        "residual_add": residual_add,
    }
    layer = type(class_name(op_name), (base,), namespace_of_layer)
    SPECS[op_name] = Spec(
        name, norm, zero_centered_weight, residual_add, default_eps, function, reference, layer
    )
    return function, layer
