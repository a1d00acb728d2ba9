"""torch.func.vmap for every family's operators, written once: a batching rule for each.

Every operator of the project takes row tensors (``x`` of shape ``[..., N]`` and the tensors that go
with it element for element) and parameters of shape ``[N]`` shared by every row, and treats all
leading dimensions of its row tensors as rows. A dimension that vmap maps over therefore becomes one
more leading dimension: the rule moves it to the front and calls the operator once for the whole
batch. Three cases take one call per sample, whose results the rule stacks: a batched parameter (a
weight or bias per sample); an operator whose outputs sum over rows (a backward's parameter
gradients, which vmap over ``torch.autograd.grad``'s ``grad_outputs`` asks of each sample); and
samples of no dimension, which the operator refuses (one call for the batch would take the samples
for a row). Without a rule PyTorch would take its per-sample fallback for all of them, with a
warning on each call.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import Tensor

from .operator_names import backward_name, overload

# The schemas' names of row tensors, in every family: x, the residual add's tensors, and the
# gradients of row outputs.
ROW_ARGUMENTS = frozenset({"x", "residual", "residual_out", "grad_out", "grad_residual_out"})


def _to_front(t: Tensor | None, dim: int | None, batch_size: int) -> Tensor | None:
    """A row tensor with vmap's dimension first; an unbatched one expanded to the batch (a view)."""
    if t is None:
        return None
    if dim is None:
        return t.expand(batch_size, *t.shape)
    return t.movedim(dim, 0)


def _sample(arg: object, dim: int | None, index: int) -> object:
    return arg if dim is None else arg.select(dim, index)  # type: ignore[union-attr]


def _batched(result: Tensor | tuple[Tensor, ...]) -> tuple[object, object]:
    """A rule's result: the outputs and vmap's dimension in each, the first."""
    return result, (0,) * len(result) if isinstance(result, tuple) else 0


def _empty_batch(op: torch._ops.OpOverload, in_dims: Sequence[int | None], args: Sequence[object]):
    """The outputs of a batch of no samples. The operator runs on one sample of zeros (so that its
    checks refuse what they refuse outside vmap), without recording it; the outputs, empty and of
    its shapes, depend on every input that requires grad with a zero gradient."""

    def zeros(arg: object, dim: int | None) -> object:
        if not isinstance(arg, Tensor) or dim is None:
            return arg
        return arg.new_zeros(arg.movedim(dim, 0).shape[1:])

    with torch.no_grad():
        sample = op(*(zeros(arg, dim) for arg, dim in zip(args, in_dims, strict=True)))
    link = sum((arg.sum() * 0 for arg in args if isinstance(arg, Tensor) and arg.requires_grad), 0)
    if isinstance(sample, tuple):
        return _batched(tuple(t.new_zeros((0, *t.shape)) + link for t in sample))
    return _batched(sample.new_zeros((0, *sample.shape)) + link)


def register_batching_rules(name: str) -> None:
    """Register the vmap rules of the operator ``name`` ("<namespace>::<operator>") and of its backward
    operator, whose parameter gradients sum over rows."""
    _register_rule(name, sums_over_rows=False)
    _register_rule(backward_name(name), sums_over_rows=True)


def _register_rule(name: str, *, sums_over_rows: bool) -> None:
    """The rule of one operator. ``sums_over_rows``: some of its outputs sum over rows, so a batch
    takes one call per sample; otherwise every output is a row tensor."""
    op = overload(name)
    names = [argument.name for argument in op._schema.arguments]

    def rule(info, in_dims: Sequence[int | None], *args: object) -> tuple[object, object]:
        # (args lacks the trailing arguments left at their defaults, as PyTorch passes them.)
        batched = {names[i] for i, dim in enumerate(in_dims) if dim is not None}
        rows = all(
            arg.dim() - (dim is not None) >= 1
            for name, arg, dim in zip(names, args, in_dims, strict=False)  # names: the whole schema
            if name in ROW_ARGUMENTS and isinstance(arg, Tensor)
        )
        if not sums_over_rows and rows and batched <= ROW_ARGUMENTS:
            moved = tuple(
                _to_front(arg, dim, info.batch_size) if names[i] in ROW_ARGUMENTS else arg
                for i, (arg, dim) in enumerate(zip(args, in_dims, strict=True))
            )
            try:
                result = op(*moved)
            except (ValueError, TypeError, RuntimeError):
                if info.batch_size > 0:  # the message a sample gives, in its shapes
                    op(*(_sample(arg, dim, 0) for arg, dim in zip(args, in_dims, strict=True)))
                raise
            return _batched(result)
        if info.batch_size == 0:
            return _empty_batch(op, in_dims, args)
        samples = [
            op(*(_sample(arg, dim, index) for arg, dim in zip(args, in_dims, strict=True)))
            for index in range(info.batch_size)
        ]
        if isinstance(samples[0], tuple):
            return _batched(tuple(torch.stack(outputs) for outputs in zip(*samples, strict=True)))
        return _batched(torch.stack(samples))

    torch.library.register_vmap(name, rule)
