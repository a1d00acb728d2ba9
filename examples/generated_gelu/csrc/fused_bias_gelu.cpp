// Schema and argument checks of the operator
// generated_gelu::fused_bias_gelu.
// The schemas below are the only place where the operator's signature is written: each device
// file only adds an implementation, and Python reaches the operator as
// torch.ops.generated_gelu.fused_bias_gelu.
#include "fused_bias_gelu.h"

#include <torch/library.h>

namespace generated_gelu::fused_bias_gelu {

namespace {

bool is_supported_dtype(at::ScalarType dtype) {
  return dtype == at::kFloat || dtype == at::kDouble || dtype == at::kHalf || dtype == at::kBFloat16;
}

}  // namespace

void check_inputs(const at::Tensor& x, const at::Tensor& bias, const at::Tensor& grad_out) {
  constexpr const char* op = "fused_bias_gelu";
  TORCH_CHECK(x.device() == bias.device(), op, ": bias must be on the same device as x, but x is on ",
              x.device(), " and bias is on ", bias.device());
  TORCH_CHECK_TYPE(is_supported_dtype(x.scalar_type()), op,
                   ": x must be float32, float64, float16 or bfloat16, but got ", x.scalar_type());
  // A float32 bias with a float16 or bfloat16 x is what autocast passes: a float32 parameter and a
  // low-precision activation. It is read in float32, and its gradient is float32.
  const bool is_half = x.scalar_type() == at::kHalf || x.scalar_type() == at::kBFloat16;
  TORCH_CHECK_TYPE(bias.scalar_type() == x.scalar_type() || (is_half && bias.scalar_type() == at::kFloat), op,
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

}  // namespace generated_gelu::fused_bias_gelu

// Non-contiguous inputs are accepted: the kernels copy them to contiguous memory first, and the
// outputs are always contiguous (the fake kernels in Python promise the same).
TORCH_LIBRARY_FRAGMENT(generated_gelu, m) {
  m.def("fused_bias_gelu(Tensor x, Tensor bias) -> Tensor");
  m.def(
      "fused_bias_gelu_backward(Tensor grad_out, Tensor x, Tensor bias)"
      " -> (Tensor, Tensor)");
}
