"""The fake kernels' argument checks that every family shares: they raise what csrc/core/common.h and the
families' checks.h raise, with the same messages (the dtypes named as C++ names them)."""

from __future__ import annotations

import torch
from torch import Tensor

# The dtypes the kernels take, by the names C++ gives them in its messages.
CPP_DTYPE_NAMES = {
    torch.float32: "Float",
    torch.float64: "Double",
    torch.float16: "Half",
    torch.bfloat16: "BFloat16",
}


def dtype_name(dtype: torch.dtype) -> str:
    return CPP_DTYPE_NAMES.get(dtype, str(dtype).removeprefix("torch.").capitalize())


def check_like(op: str, name: str, x: Tensor, t: Tensor, x_name: str = "x") -> None:
    """A tensor that goes with x element for element (a backward operator's grad_out; a residual): on
    x's device, with x's dtype and shape."""
    same_device = t.device == x.device
    torch._check(
        same_device,
        lambda: (
            f"{op}: {name} must be on the same device as {x_name}, but {x_name} is on {x.device} "
            f"and {name} is on {t.device}"
        ),
    )
    same_dtype = t.dtype == x.dtype
    torch._check_type(
        same_dtype,
        lambda: (
            f"{op}: {name} must have the same dtype as {x_name} ({dtype_name(x.dtype)}), "
            f"but got {dtype_name(t.dtype)}"
        ),
    )
    same_shape = t.shape == x.shape
    torch._check_value(
        same_shape,
        lambda: f"{op}: {name} must have the shape of {x_name} {list(x.shape)}, but got {list(t.shape)}",
    )
