"""What every family's spec shares: the operators its name stands for."""

from __future__ import annotations

import torch


class OperatorNames:
    """A spec's operators, from its ``name``, "<namespace>::<operator>" (a field of the family's spec):
    the forward's overload and the backward's, which C++ registers as "<operator>_backward"."""

    name: str

    @property
    def op_name(self) -> str:
        return self.name.split("::")[1]

    @property
    def forward_op(self) -> torch._ops.OpOverload:
        namespace, op_name = self.name.split("::")
        return getattr(getattr(torch.ops, namespace), op_name).default

    @property
    def backward_op(self) -> torch._ops.OpOverload:
        namespace, op_name = self.name.split("::")
        return getattr(getattr(torch.ops, namespace), f"{op_name}_backward").default
