// bias_relu with CUDA kernels of its own, as an owner who needs a kernel unlike the family's writes
// them (README: "Which file to edit"): a grid-stride loop over the elements with the operator's math
// and the project's helpers; grad_bias summed by ATen from float32 terms.
#include "bias_relu.h"

#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/sum.h>
#include <ATen/ops/zeros.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/library.h>

#include <tuple>

#include "bias_activation/checks.h"
#include "core/cuda.cuh"

namespace {
namespace core = generated_gelu::core;
using generated_gelu::activations::BiasRelu;
using generated_gelu::bias_activation::check_inputs;

template <typename scalar_t, typename bias_t>
__global__ void owners_forward_kernel(const scalar_t* x, const bias_t* bias, scalar_t* y, int64_t n,
                                      int64_t cols) {
  using opmath_t = at::opmath_type<scalar_t>;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const opmath_t h = static_cast<opmath_t>(x[i]) + static_cast<opmath_t>(bias[i % cols]);
    y[i] = static_cast<scalar_t>(BiasRelu<opmath_t>::forward(h));
  }
}

template <typename scalar_t, typename bias_t>
__global__ void owners_backward_kernel(const scalar_t* grad_out, const scalar_t* x, const bias_t* bias,
                                       at::opmath_type<scalar_t>* terms, int64_t n, int64_t cols) {
  using opmath_t = at::opmath_type<scalar_t>;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const opmath_t h = static_cast<opmath_t>(x[i]) + static_cast<opmath_t>(bias[i % cols]);
    terms[i] = static_cast<opmath_t>(grad_out[i]) * BiasRelu<opmath_t>::backward(h);
  }
}

unsigned blocks_for(int64_t n) {
  const int64_t wanted = (n + 255) / 256;
  return static_cast<unsigned>(std::min<int64_t>(wanted, int64_t{core::multiprocessor_count()} * 8));
}

at::Tensor owners_forward(const at::Tensor& x_in, const at::Tensor& bias_in) {
  check_inputs("bias_relu", x_in, bias_in);
  const c10::cuda::CUDAGuard guard(x_in.device());
  const at::Tensor x = x_in.contiguous();
  const at::Tensor bias = bias_in.contiguous();
  at::Tensor y = at::empty(x.sizes(), x.options());
  if (x.numel() == 0) return y;
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), "bias_relu", [&] {
    core::dispatch_parameter_type<scalar_t>(bias.scalar_type(), [&](auto bias_tag) {
      using bias_t = decltype(bias_tag);
      owners_forward_kernel<scalar_t, bias_t><<<blocks_for(x.numel()), 256, 0, stream>>>(
          x.const_data_ptr<scalar_t>(), bias.const_data_ptr<bias_t>(), y.mutable_data_ptr<scalar_t>(),
          x.numel(), x.size(-1));
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    });
  });
  return y;
}

std::tuple<at::Tensor, at::Tensor> owners_backward(const at::Tensor& grad_out_in, const at::Tensor& x_in,
                                                   const at::Tensor& bias_in) {
  check_inputs("bias_relu", x_in, bias_in, grad_out_in);
  const c10::cuda::CUDAGuard guard(x_in.device());
  const at::Tensor grad_out = grad_out_in.contiguous();
  const at::Tensor x = x_in.contiguous();
  const at::Tensor bias = bias_in.contiguous();
  const at::ScalarType opmath = x.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
  at::Tensor terms = at::empty(x.sizes(), x.options().dtype(opmath));
  if (x.numel() > 0) {
    const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), "bias_relu_backward", [&] {
      core::dispatch_parameter_type<scalar_t>(bias.scalar_type(), [&](auto bias_tag) {
        using bias_t = decltype(bias_tag);
        owners_backward_kernel<scalar_t, bias_t><<<blocks_for(x.numel()), 256, 0, stream>>>(
            grad_out.const_data_ptr<scalar_t>(), x.const_data_ptr<scalar_t>(), bias.const_data_ptr<bias_t>(),
            terms.mutable_data_ptr<at::opmath_type<scalar_t>>(), x.numel(), x.size(-1));
        C10_CUDA_KERNEL_LAUNCH_CHECK();
      });
    });
  }
  if (x.numel() == 0) return {terms.to(x.scalar_type()), at::zeros(bias.sizes(), bias.options())};
  const at::Tensor grad_bias = at::sum(terms.view({-1, x.size(-1)}), 0).to(bias.scalar_type());
  return {terms.to(x.scalar_type()), grad_bias};
}
}  // namespace

TORCH_LIBRARY_IMPL(generated_gelu, CUDA, m) {
  m.impl("bias_relu", &owners_forward);
  m.impl("bias_relu_backward", &owners_backward);
}
