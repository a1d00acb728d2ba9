// CPU kernels of generated_gelu::fused_bias_gelu:
// parallel over rows, float32/float64/float16/bfloat16, with float math for the half types, and a
// float32 bias (and grad_bias) with a float16 or bfloat16 x, as under autocast.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/Parallel.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include <algorithm>
#include <type_traits>
#include <vector>

#include "fused_bias_gelu.h"

namespace generated_gelu::fused_bias_gelu {

namespace {

// Rows per parallel task: enough elements that a task outweighs its scheduling cost.
int64_t row_grain(int64_t cols) {
  return std::max<int64_t>(1, 32768 / std::max<int64_t>(cols, 1));
}

// grad_bias is summed over fixed chunks of rows, then over the chunks in order, so the result does
// not depend on the number of threads: the same inputs give the same bits on every run.
constexpr int64_t kBiasChunks = 64;

// The kernels' names in the error for an unsupported dtype.
constexpr const char* kForwardName = "fused_bias_gelu_cpu";
constexpr const char* kBackwardName = "fused_bias_gelu_backward_cpu";

template <typename scalar_t, typename bias_t>
void forward_kernel(const scalar_t* x, const bias_t* bias, scalar_t* y, int64_t rows, int64_t cols) {
  using opmath_t = at::opmath_type<scalar_t>;
  const std::vector<opmath_t> b(bias, bias + cols);
  at::parallel_for(0, rows, row_grain(cols), [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const scalar_t* x_row = x + r * cols;
      scalar_t* y_row = y + r * cols;
      for (int64_t c = 0; c < cols; ++c) {
        y_row[c] = static_cast<scalar_t>(activation(static_cast<opmath_t>(x_row[c]) + b[c]));
      }
    }
  });
}

template <typename scalar_t, typename bias_t>
void backward_kernel(const scalar_t* grad_out, const scalar_t* x, const bias_t* bias, scalar_t* grad_x,
                     bias_t* grad_bias, int64_t rows, int64_t cols) {
  using opmath_t = at::opmath_type<scalar_t>;
  const std::vector<opmath_t> b(bias, bias + cols);
  const int64_t chunks = std::min(rows, kBiasChunks);
  const int64_t rows_per_chunk = (rows + chunks - 1) / chunks;
  std::vector<opmath_t> partial(chunks * cols, opmath_t(0));
  at::parallel_for(0, chunks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t chunk = begin; chunk < end; ++chunk) {
      opmath_t* acc = partial.data() + chunk * cols;
      const int64_t row_end = std::min(rows, (chunk + 1) * rows_per_chunk);
      for (int64_t r = chunk * rows_per_chunk; r < row_end; ++r) {
        const int64_t offset = r * cols;
        for (int64_t c = 0; c < cols; ++c) {
          const opmath_t h = static_cast<opmath_t>(x[offset + c]) + b[c];
          const opmath_t g = static_cast<opmath_t>(grad_out[offset + c]) * activation_grad(h);
          grad_x[offset + c] = static_cast<scalar_t>(g);
          acc[c] += g;
        }
      }
    }
  });
  for (int64_t c = 0; c < cols; ++c) {
    opmath_t sum = 0;
    for (int64_t chunk = 0; chunk < chunks; ++chunk) sum += partial[chunk * cols + c];
    grad_bias[c] = static_cast<bias_t>(sum);
  }
}

// Calls f(bias_t{}) with the type of bias: x's own, or float for a float16/bfloat16 x (autocast).
template <typename scalar_t, typename F>
void dispatch_bias_type(at::ScalarType bias_type, F&& f) {
  if constexpr (std::is_same_v<scalar_t, c10::Half> || std::is_same_v<scalar_t, c10::BFloat16>) {
    if (bias_type == at::kFloat) {
      f(float{});
      return;
    }
  }
  f(scalar_t{});
}

}  // namespace

at::Tensor forward_cpu(const at::Tensor& x_in, const at::Tensor& bias_in) {
  check_inputs(x_in, bias_in);
  const at::Tensor x = x_in.contiguous();
  const at::Tensor bias = bias_in.contiguous();
  at::Tensor y = at::empty(x.sizes(), x.options());
  const int64_t cols = num_cols(x);
  if (y.numel() == 0) return y;
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), kForwardName, [&] {
    dispatch_bias_type<scalar_t>(bias.scalar_type(), [&](auto bias_tag) {
      using bias_t = decltype(bias_tag);
      forward_kernel(x.const_data_ptr<scalar_t>(), bias.const_data_ptr<bias_t>(),
                     y.mutable_data_ptr<scalar_t>(), x.numel() / cols, cols);
    });
  });
  return y;
}

std::tuple<at::Tensor, at::Tensor> backward_cpu(const at::Tensor& grad_out_in, const at::Tensor& x_in,
                                                const at::Tensor& bias_in) {
  check_inputs(x_in, bias_in, grad_out_in);
  const at::Tensor grad_out = grad_out_in.contiguous();
  const at::Tensor x = x_in.contiguous();
  const at::Tensor bias = bias_in.contiguous();
  at::Tensor grad_x = at::empty(x.sizes(), x.options());
  const int64_t cols = num_cols(x);
  if (x.numel() == 0) return {grad_x, at::zeros(bias.sizes(), bias.options())};
  at::Tensor grad_bias = at::empty(bias.sizes(), bias.options());
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), kBackwardName, [&] {
    dispatch_bias_type<scalar_t>(bias.scalar_type(), [&](auto bias_tag) {
      using bias_t = decltype(bias_tag);
      backward_kernel(grad_out.const_data_ptr<scalar_t>(), x.const_data_ptr<scalar_t>(),
                      bias.const_data_ptr<bias_t>(), grad_x.mutable_data_ptr<scalar_t>(),
                      grad_bias.mutable_data_ptr<bias_t>(), x.numel() / cols, cols);
    });
  });
  return {grad_x, grad_bias};
}

}  // namespace generated_gelu::fused_bias_gelu

TORCH_LIBRARY_IMPL(generated_gelu, CPU, m) {
  namespace op = generated_gelu::fused_bias_gelu;
  m.impl("fused_bias_gelu", &op::forward_cpu);
  m.impl("fused_bias_gelu_backward", &op::backward_cpu);
}
