"""fused_bias_gelu: y = gelu_tanh(x + bias), fused into one pass over x.

The schema is defined once, in C++ (csrc/fused_bias_gelu.cpp); the CPU and
CUDA kernels and the autograd formula are registered in C++ too. This
module adds what PyTorch needs from Python: a typed wrapper, fake
implementations (shapes only, so torch.compile can trace the operator
without running it), a plain-PyTorch reference of the same math, and an
``nn.Module`` layer.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

__all__ = [
    "fused_bias_gelu",
    "reference_fused_bias_gelu",
    "FusedBiasGelu",
]

_OP_NAME = "generated_gelu::fused_bias_gelu"
_BACKWARD_OP_NAME = "generated_gelu::fused_bias_gelu_backward"
_op = torch.ops.generated_gelu.fused_bias_gelu.default


def fused_bias_gelu(x: Tensor, bias: Tensor) -> Tensor:
    """Return ``gelu_tanh(x + bias)`` computed in one fused kernel.

    Args:
        x: tensor of shape ``[..., N]``, float32, float64, float16 or bfloat16, on the CPU or a
            CUDA device. Non-contiguous tensors are accepted (copied to contiguous memory first).
        bias: tensor of shape ``[N]`` on the device of ``x``, with the dtype of ``x`` or, for a
            float16 or bfloat16 ``x``, float32 (a float32 parameter under ``torch.autocast``).

    Returns:
        A new contiguous tensor with the shape, dtype and device of ``x``. Half-precision inputs
        are computed in float32 and rounded once. Under autocast ``x`` is usually the output of a
        linear layer, in the autocast dtype, and so is the result (as ``F.linear`` with a bias
        gives); ``bias`` keeps its dtype and gets a gradient of that dtype.

    Raises:
        TypeError: ``x`` is not a floating tensor of a supported dtype, ``bias`` has a dtype other
            than those above, or (in the backward) ``grad_out`` has another dtype than ``x``.
        ValueError: ``x`` is 0-d, ``bias`` is not 1-D with ``x.size(-1)`` elements, or
            ``grad_out`` does not have the shape of ``x``.
        RuntimeError: the tensors are not all on one device.

    Differentiable once with respect to ``x`` and ``bias``; differentiating the gradient again
    (double backward) raises ``NotImplementedError`` (use the reference for that).
    """
    return _op(x, bias)


def reference_fused_bias_gelu(x: Tensor, bias: Tensor) -> Tensor:
    """The same math composed from PyTorch operators (the tests' oracle and the eager baseline)."""
    return F.gelu(x + bias, approximate="tanh")


# Fake implementations: output metadata only. The kernels always return contiguous tensors, so
# these do too (new_empty is contiguous even for a strided x). The argument checks run in C++.
@torch.library.register_fake(_OP_NAME)
def _(x: Tensor, bias: Tensor) -> Tensor:
    return x.new_empty(x.shape)


@torch.library.register_fake(_BACKWARD_OP_NAME)
def _(grad_out: Tensor, x: Tensor, bias: Tensor) -> tuple[Tensor, Tensor]:
    return x.new_empty(x.shape), bias.new_empty(bias.shape)


class FusedBiasGelu(nn.Module):
    """Layer computing ``gelu_tanh(x + bias)`` with a learnable ``bias`` of ``num_features``.

    Put it after a bias-free linear layer (``nn.Linear(..., bias=False)``) to fuse that layer's bias
    add into the activation.
    """

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
        return fused_bias_gelu(x, self.bias)

    def extra_repr(self) -> str:
        return f"num_features={self.num_features}"
