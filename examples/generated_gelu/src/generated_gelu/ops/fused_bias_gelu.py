"""The operator's Python API: its math in PyTorch operators; the rest comes from its family."""

import torch.nn.functional as F
from torch import Tensor

from ..families import bias_activation


def reference_fused_bias_gelu(x: Tensor, bias: Tensor) -> Tensor:
    return F.gelu(x + bias, approximate="tanh")


fused_bias_gelu, FusedBiasGelu = bias_activation.operator(
    "generated_gelu::fused_bias_gelu", "gelu_tanh", reference_fused_bias_gelu
)
