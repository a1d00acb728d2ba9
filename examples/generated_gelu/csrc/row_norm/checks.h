// The row normalization family's argument checks, shared by its CPU and CUDA entry points. The
// messages name the operator and the argument.
#pragma once

#include <ATen/core/Tensor.h>

#include <cmath>
#include <string>

#include "core/common.h"

namespace generated_gelu::row_norm {

// A parameter of the norm (weight, bias): 1-D with x.size(-1) elements, on x's device, with x's dtype
// or, for a float16 or bfloat16 x, float32 (what autocast passes). `x` names the normalized tensor
// (x; residual_out in the backward of an operator with a residual add).
inline void check_parameter(const std::string& op, const char* name, const char* x_name, const at::Tensor& x,
                            const at::Tensor& p) {
  TORCH_CHECK(p.device() == x.device(), op, ": ", name, " must be on the same device as ", x_name, ", but ",
              x_name, " is on ", x.device(), " and ", name, " is on ", p.device());
  TORCH_CHECK_TYPE(core::is_parameter_dtype_allowed(x.scalar_type(), p.scalar_type()), op, ": ", name,
                   " must have the dtype of ", x_name, " (", x.scalar_type(),
                   ") or, for a float16 or bfloat16 ", x_name, ", float32, but got ", p.scalar_type());
  TORCH_CHECK_VALUE(p.dim() == 1 && p.size(0) == x.size(-1), op, ": ", name, " must be 1-D with ", x_name,
                    ".size(-1) = ", x.size(-1), " elements, but got shape ", p.sizes());
}

// A tensor that goes with x element for element (residual, grad_out, grad_residual_out): on x's
// device, with its dtype and shape.
inline void check_like(const std::string& op, const char* name, const char* x_name, const at::Tensor& x,
                       const at::Tensor& t) {
  TORCH_CHECK(t.device() == x.device(), op, ": ", name, " must be on the same device as ", x_name, ", but ",
              x_name, " is on ", x.device(), " and ", name, " is on ", t.device());
  TORCH_CHECK_TYPE(t.scalar_type() == x.scalar_type(), op, ": ", name, " must have the same dtype as ",
                   x_name, " (", x.scalar_type(), "), but got ", t.scalar_type());
  TORCH_CHECK_VALUE(t.sizes() == x.sizes(), op, ": ", name, " must have the shape of ", x_name, " ",
                    x.sizes(), ", but got ", t.sizes());
}

// The forward's inputs: x (the normalized tensor, or the one the residual is added to), the
// parameters (bias only where defined) and eps.
inline void check_inputs(const std::string& op, const char* x_name, const at::Tensor& x,
                         const at::Tensor& weight, const at::Tensor& bias, double eps) {
  TORCH_CHECK_TYPE(core::is_supported_dtype(x.scalar_type()), op, ": ", x_name,
                   " must be float32, float64, float16 or bfloat16, but got ", x.scalar_type());
  TORCH_CHECK_VALUE(x.dim() >= 1, op, ": ", x_name, " must have at least 1 dimension, but got a 0-d tensor");
  check_parameter(op, "weight", x_name, x, weight);
  if (bias.defined()) {
    check_parameter(op, "bias", x_name, x, bias);
    TORCH_CHECK_TYPE(bias.scalar_type() == weight.scalar_type(), op, ": bias must have the dtype of weight (",
                     weight.scalar_type(), "), but got ", bias.scalar_type());
  }
  TORCH_CHECK_VALUE(std::isfinite(eps) && eps >= 0, op, ": eps must be a finite number >= 0, but got ", eps);
}

// Every argument of either operator: x_name names the normalized tensor (x; the backward's
// residual_out where the operator adds a residual). residual (the forward's, with a residual add),
// grad_out (the backward's) and grad_residual_out (optional in the backward) are checked where defined.
inline void check_arguments(const std::string& op, const char* x_name, const at::Tensor& x,
                            const at::Tensor& residual, const at::Tensor& weight, const at::Tensor& bias,
                            double eps, const at::Tensor& grad_out = {},
                            const at::Tensor& grad_residual_out = {}) {
  check_inputs(op, x_name, x, weight, bias, eps);
  if (residual.defined()) check_like(op, "residual", x_name, x, residual);
  if (grad_out.defined()) check_like(op, "grad_out", x_name, x, grad_out);
  if (grad_residual_out.defined()) check_like(op, "grad_residual_out", x_name, x, grad_residual_out);
}

// A tensor argument of the schema (Tensor, not Tensor?): Python's None arrives as an undefined tensor.
inline void check_given(const std::string& op, const char* name, const at::Tensor& t) {
  TORCH_CHECK_TYPE(t.defined(), op, ": ", name, " must be a tensor, but got None");
}

// The kernels' entry points, in their form (row_norm/registration.h): the arguments the operator's
// schema has (Norm's kResidual and kBias say which) must be given, then check_arguments.
template <template <typename> class Norm>
void check_forward(const std::string& op, const at::Tensor& x, const at::Tensor& residual,
                   const at::Tensor& weight, const at::Tensor& bias, double eps) {
  check_given(op, "x", x);
  if constexpr (Norm<float>::kResidual) check_given(op, "residual", residual);
  check_given(op, "weight", weight);
  if constexpr (Norm<float>::kBias) check_given(op, "bias", bias);
  check_arguments(op, "x", x, residual, weight, bias, eps);
}

template <template <typename> class Norm>
void check_backward(const std::string& op, const at::Tensor& grad_out, const at::Tensor& grad_residual_out,
                    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, double eps) {
  const char* x_name = Norm<float>::kResidual ? "residual_out" : "x";
  check_given(op, "grad_out", grad_out);
  check_given(op, x_name, x);
  check_given(op, "weight", weight);
  if constexpr (Norm<float>::kBias) check_given(op, "bias", bias);
  check_arguments(op, x_name, x, {}, weight, bias, eps, grad_out, grad_residual_out);
}

}  // namespace generated_gelu::row_norm
