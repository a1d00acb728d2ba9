"""The operator's Python API: its math in PyTorch operators; the rest comes from its family."""

import torch.nn.functional as F
from torch import Tensor

from ..families import row_norm


def reference_rms_norm(x: Tensor, weight: Tensor, eps: float) -> Tensor:
    return F.rms_norm(x, (x.shape[-1],), weight, eps)


rms_norm, RmsNorm = row_norm.operator("generated_rmsnorm::rms_norm", "rms_norm", reference_rms_norm)
