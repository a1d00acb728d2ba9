// The bias + activation family's argument checks, shared by its CPU and CUDA entry points.
#pragma once

#include <ATen/core/Tensor.h>

#include <string>

#include "core/common.h"

namespace generated_rmsnorm::bias_activation {

// ---------------------------------------------------------------------------------------------
// Argument checks: the messages name the operator and the argument. grad_out is checked only when
// defined (the backward operator).
// ---------------------------------------------------------------------------------------------
inline void check_inputs(const std::string& op, const at::Tensor& x, const at::Tensor& bias,
                         const at::Tensor& grad_out = {}) {
  TORCH_CHECK(x.device() == bias.device(), op, ": bias must be on the same device as x, but x is on ",
              x.device(), " and bias is on ", bias.device());
  TORCH_CHECK_TYPE(core::is_supported_dtype(x.scalar_type()), op,
                   ": x must be float32, float64, float16 or bfloat16, but got ", x.scalar_type());
  // A float32 bias with a float16 or bfloat16 x is what autocast passes: a float32 parameter and a
  // low-precision activation. It is read in float32, and its gradient is float32.
  TORCH_CHECK_TYPE(core::is_parameter_dtype_allowed(x.scalar_type(), bias.scalar_type()), op,
                   ": bias must have the dtype of x (", x.scalar_type(),
                   ") or, for a float16 or bfloat16 x, float32, but got ", bias.scalar_type());
  TORCH_CHECK_VALUE(x.dim() >= 1, op, ": x must have at least 1 dimension, but got a 0-d tensor");
  TORCH_CHECK_VALUE(bias.dim() == 1 && bias.size(0) == x.size(-1), op,
                    ": bias must be 1-D with x.size(-1) = ", x.size(-1), " elements, but got shape ",
                    bias.sizes());
  if (grad_out.defined()) {
    TORCH_CHECK(grad_out.device() == x.device(), op,
                ": grad_out must be on the same device as x, but x is on ", x.device(),
                " and grad_out is on ", grad_out.device());
    TORCH_CHECK_TYPE(grad_out.scalar_type() == x.scalar_type(), op,
                     ": grad_out must have the same dtype as x (", x.scalar_type(), "), but got ",
                     grad_out.scalar_type());
    TORCH_CHECK_VALUE(grad_out.sizes() == x.sizes(), op, ": grad_out must have the shape of x ", x.sizes(),
                      ", but got ", grad_out.sizes());
  }
}

}  // namespace generated_rmsnorm::bias_activation
