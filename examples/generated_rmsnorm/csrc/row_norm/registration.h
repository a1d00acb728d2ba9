// The row normalization family's kernel signatures and their registration, shared by the CPU entry
// points (row_norm/operator.h) and the CUDA ones (row_norm/cuda.cuh): every kernel takes (x, weight,
// bias or undefined, eps), and the adapters below give it the schema's arguments, with or without
// the bias.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include <string>
#include <tuple>

#include "core/common.h"

namespace generated_rmsnorm::row_norm {

// grad_x, grad_weight and grad_bias (undefined without a bias).
using Grads = std::tuple<at::Tensor, at::Tensor, at::Tensor>;

// The outputs of either pass, allocated as the kernels write them: contiguous, grad_weight and
// grad_bias in their parameter's dtype (float32 under autocast), zeros where there are no rows.
inline Grads allocate_grads(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias) {
  const bool empty = x.numel() == 0;
  const auto make = [&](const at::Tensor& p) {
    if (!p.defined()) return at::Tensor();
    return empty ? at::zeros(p.sizes(), p.options()) : at::empty(p.sizes(), p.options());
  };
  return {at::empty(x.sizes(), x.options()), make(weight), make(bias)};
}

// ---------------------------------------------------------------------------------------------
// The schemas' adapters: a kernel on (x, weight, bias or undefined, eps), with or without the bias.
// ---------------------------------------------------------------------------------------------
template <template <typename> class Norm,
          at::Tensor (*Forward)(const at::Tensor&, const at::Tensor&, const at::Tensor&, double)>
struct Adapters {
  static at::Tensor forward_with_bias(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                      double eps) {
    return Forward(x, weight, bias, eps);
  }
  static at::Tensor forward(const at::Tensor& x, const at::Tensor& weight, double eps) {
    return Forward(x, weight, at::Tensor(), eps);
  }
};

template <template <typename> class Norm, Grads (*Backward)(const at::Tensor&, const at::Tensor&,
                                                            const at::Tensor&, const at::Tensor&, double)>
struct BackwardAdapters {
  static Grads backward_with_bias(const at::Tensor& grad_out, const at::Tensor& x, const at::Tensor& weight,
                                  const at::Tensor& bias, double eps) {
    return Backward(grad_out, x, weight, bias, eps);
  }
  static std::tuple<at::Tensor, at::Tensor> backward(const at::Tensor& grad_out, const at::Tensor& x,
                                                     const at::Tensor& weight, double eps) {
    auto [grad_x, grad_weight, grad_bias] = Backward(grad_out, x, weight, at::Tensor(), eps);
    return {grad_x, grad_weight};
  }
};

// Registers `forward` and `backward` (kernels on (x, weight, bias or undefined, eps)) for `key`.
template <template <typename> class Norm,
          at::Tensor (*Forward)(const at::Tensor&, const at::Tensor&, const at::Tensor&, double),
          Grads (*Backward)(const at::Tensor&, const at::Tensor&, const at::Tensor&, const at::Tensor&,
                            double)>
void register_kernels(torch::Library& m, c10::DispatchKey key) {
  const std::string name = core::unqualified(Norm<float>::kName);
  const std::string backward_name = name + "_backward";
  using F = Adapters<Norm, Forward>;
  using B = BackwardAdapters<Norm, Backward>;
  if constexpr (Norm<float>::kBias) {
    m.impl(name.c_str(), torch::dispatch(key, TORCH_FN(F::forward_with_bias)));
    m.impl(backward_name.c_str(), torch::dispatch(key, TORCH_FN(B::backward_with_bias)));
  } else {
    m.impl(name.c_str(), torch::dispatch(key, TORCH_FN(F::forward)));
    m.impl(backward_name.c_str(), torch::dispatch(key, TORCH_FN(B::backward)));
  }
}

}  // namespace generated_rmsnorm::row_norm
