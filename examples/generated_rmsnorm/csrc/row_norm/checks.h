// The row normalization family's argument checks, shared by its CPU and CUDA entry points.
#pragma once

#include <ATen/core/Tensor.h>

#include <cmath>
#include <string>

#include "core/common.h"

namespace generated_rmsnorm::row_norm {

// A parameter of the norm (weight, bias): 1-D with x.size(-1) elements, on x's device, with x's dtype
// or, for a float16 or bfloat16 x, float32 (what autocast passes).
inline void check_parameter(const std::string& op, const char* name, const at::Tensor& x,
                            const at::Tensor& p) {
  TORCH_CHECK(p.device() == x.device(), op, ": ", name, " must be on the same device as x, but x is on ",
              x.device(), " and ", name, " is on ", p.device());
  TORCH_CHECK_TYPE(core::is_parameter_dtype_allowed(x.scalar_type(), p.scalar_type()), op, ": ", name,
                   " must have the dtype of x (", x.scalar_type(),
                   ") or, for a float16 or bfloat16 x, float32, but got ", p.scalar_type());
  TORCH_CHECK_VALUE(p.dim() == 1 && p.size(0) == x.size(-1), op, ": ", name,
                    " must be 1-D with x.size(-1) = ", x.size(-1), " elements, but got shape ", p.sizes());
}

// The messages name the operator and the argument. bias and grad_out are checked only when defined
// (LayerNorm's bias; the backward operator's grad_out).
inline void check_inputs(const std::string& op, const at::Tensor& x, const at::Tensor& weight,
                         const at::Tensor& bias, double eps, const at::Tensor& grad_out = {}) {
  TORCH_CHECK_TYPE(core::is_supported_dtype(x.scalar_type()), op,
                   ": x must be float32, float64, float16 or bfloat16, but got ", x.scalar_type());
  TORCH_CHECK_VALUE(x.dim() >= 1, op, ": x must have at least 1 dimension, but got a 0-d tensor");
  check_parameter(op, "weight", x, weight);
  if (bias.defined()) {
    check_parameter(op, "bias", x, bias);
    TORCH_CHECK_TYPE(bias.scalar_type() == weight.scalar_type(), op, ": bias must have the dtype of weight (",
                     weight.scalar_type(), "), but got ", bias.scalar_type());
  }
  TORCH_CHECK_VALUE(std::isfinite(eps) && eps >= 0, op, ": eps must be a finite number >= 0, but got ", eps);
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

}  // namespace generated_rmsnorm::row_norm
