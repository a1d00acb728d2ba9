"""torch.func.vmap for every family's operators, written once: a batching rule for each.

Every operator of the project takes row tensors (``x`` of shape ``[..., N]`` and the tensors that go
with it element for element) and parameters of shape ``[N]`` shared by every row, and treats all
leading dimensions of its row tensors as rows. A dimension that vmap maps over therefore becomes one
more leading dimension: the rule moves it to the front and calls the operator once for the whole
batch. Two cases need one call per sample, whose results the rule stacks: a batched parameter (a
weight or bias per sample), and an operator whose outputs sum over rows (a backward's parameter
gradients, which vmap then asks of each sample, as ``torch.autograd.grad(..., is_grads_batched=True)``
does). Without a rule PyTorch would take its per-sample fallback for both, with a warning.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import Tensor

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


def _empty_batch(op: torch._ops.OpOverload, in_dims: Sequence[int | None], args: Sequence[object]):
    """The outputs of a batch of no samples: the operator's fake kernel (on the meta device) gives a
    sample's shapes, after the kernels' argument checks."""
    device = next(arg.device for arg in args if isinstance(arg, Tensor))

    def meta(arg: object, dim: int | None) -> object:
        if not isinstance(arg, Tensor):
            return arg
        shape = arg.shape if dim is None else arg.movedim(dim, 0).shape[1:]
        return torch.empty(shape, dtype=arg.dtype, device="meta")

    sample = op(*(meta(arg, dim) for arg, dim in zip(args, in_dims, strict=True)))
    outputs = sample if isinstance(sample, tuple) else (sample,)
    empty = tuple(torch.empty((0, *t.shape), dtype=t.dtype, device=device) for t in outputs)
    return (empty, (0,) * len(empty)) if isinstance(sample, tuple) else (empty[0], 0)


def register_batching_rule(name: str, *, sums_over_rows: bool) -> None:
    """Register the vmap rule of the operator ``name`` ("<namespace>::<operator>"). ``sums_over_rows``:
    some of its outputs sum over rows (a backward's parameter gradients), so a batch takes one call
    per sample; otherwise every output is a row tensor."""
    namespace, op_name = name.split("::")
    op = getattr(getattr(torch.ops, namespace), op_name).default
    names = [argument.name for argument in op._schema.arguments]

    def rule(info, in_dims: Sequence[int | None], *args: object) -> tuple[object, object]:
        batched = {names[i] for i, dim in enumerate(in_dims) if dim is not None}
        if not sums_over_rows and batched <= ROW_ARGUMENTS:
            args = tuple(
                _to_front(arg, dim, info.batch_size) if names[i] in ROW_ARGUMENTS else arg
                for i, (arg, dim) in enumerate(zip(args, in_dims, strict=True))
            )
            result = op(*args)
            return result, (0,) * len(result) if isinstance(result, tuple) else 0
        if info.batch_size == 0:
            return _empty_batch(op, in_dims, args)
        samples = [
            op(*(_sample(arg, dim, index) for arg, dim in zip(args, in_dims, strict=True)))
            for index in range(info.batch_size)
        ]
        if isinstance(samples[0], tuple):
            stacked = tuple(torch.stack(outputs) for outputs in zip(*samples, strict=True))
            return stacked, (0,) * len(stacked)
        return torch.stack(samples), 0

    torch.library.register_vmap(name, rule)
