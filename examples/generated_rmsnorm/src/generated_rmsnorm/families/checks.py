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


def check_grad_out(op: str, x: Tensor, grad_out: Tensor) -> None:
    """A backward operator's grad_out: on x's device, with x's dtype and shape."""
    same_device = grad_out.device == x.device
    torch._check(
        same_device,
        lambda: (
            f"{op}: grad_out must be on the same device as x, but x is on {x.device} "
            f"and grad_out is on {grad_out.device}"
        ),
    )
    same_dtype = grad_out.dtype == x.dtype
    torch._check_type(
        same_dtype,
        lambda: (
            f"{op}: grad_out must have the same dtype as x ({dtype_name(x.dtype)}), "
            f"but got {dtype_name(grad_out.dtype)}"
        ),
    )
    same_shape = grad_out.shape == x.shape
    torch._check_value(
        same_shape,
        lambda: f"{op}: grad_out must have the shape of x {list(x.shape)}, but got {list(grad_out.shape)}",
    )
