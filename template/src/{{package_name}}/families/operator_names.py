"""What every family shares about an operator's names: the operators a name stands for, and the
operator's name in CamelCase (its layer's and its C++ struct's)."""

from __future__ import annotations

import torch


def backward_name(name: str) -> str:
    """The backward operator of the operator ``name`` ("<namespace>::<operator>"), as C++ registers it."""
    return f"{name}_backward"


def overload(name: str) -> torch._ops.OpOverload:
    """The operator ``name`` ("<namespace>::<operator>"), its one (default) overload."""
    namespace, op_name = name.split("::")
    return getattr(getattr(torch.ops, namespace), op_name).default


class OperatorNames:
    """A spec's operators, from its ``name``, "<namespace>::<operator>" (a field of the family's spec):
    the forward's overload and the backward's, which C++ registers as "<operator>_backward"."""

    name: str

    @property
    def op_name(self) -> str:
        return self.name.split("::")[1]

    @property
    def forward_op(self) -> torch._ops.OpOverload:
        return overload(self.name)

    @property
    def backward_op(self) -> torch._ops.OpOverload:
        return overload(backward_name(self.name))


def class_name(op_name: str) -> str:
    """The operator's name in CamelCase, as copier.yml names its C++ struct: a part that starts with a
    digit keeps its _, so that bias_gelu2 (BiasGelu2) and bias_gelu_2 (BiasGelu_2) stay apart."""
    return "".join(f"_{part}" if part[0].isdigit() else part.capitalize() for part in op_name.split("_"))
