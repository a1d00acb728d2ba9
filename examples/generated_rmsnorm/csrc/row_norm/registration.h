// The row normalization family's kernel signatures and the schemas' forms of them, shared by the CPU
// entry points (row_norm/operator.h) and the CUDA ones (row_norm/cuda.cuh). Every kernel takes the
// same arguments, an undefined tensor where the operator has no such argument: the forward (x,
// residual, weight, bias, eps), the backward (grad_out, grad_residual_out, x, weight, bias, eps). The
// adapters below give a kernel the schema's arguments, and call_forward/call_backward call the
// operators through the dispatcher with them; which of the four forms an operator has follows from
// its norm's kBias and kResidual.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <torch/library.h>

#include <optional>
#include <string>
#include <tuple>

#include "core/common.h"

namespace generated_rmsnorm::row_norm {

// The forward's y and residual_out = x + residual (undefined without a residual add).
using Outputs = std::tuple<at::Tensor, at::Tensor>;
// grad_x (with a residual add also residual's gradient, the same tensor), grad_weight and grad_bias
// (undefined without a bias).
using Grads = std::tuple<at::Tensor, at::Tensor, at::Tensor>;

using ForwardKernel = Outputs (*)(const at::Tensor& x, const at::Tensor& residual, const at::Tensor& weight,
                                  const at::Tensor& bias, double eps);
using BackwardKernel = Grads (*)(const at::Tensor& grad_out, const at::Tensor& grad_residual_out,
                                 const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                                 double eps);

// The outputs of either pass, allocated as the kernels write them: contiguous, grad_weight and
// grad_bias in their parameter's dtype (float32 under autocast), zeros where there are no rows.
inline Outputs allocate_outputs(const at::Tensor& x, bool residual_add) {
  return {at::empty(x.sizes(), x.options()), residual_add ? at::empty(x.sizes(), x.options()) : at::Tensor()};
}

inline Grads allocate_grads(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias) {
  const bool empty = x.numel() == 0;
  const auto make = [&](const at::Tensor& p) {
    if (!p.defined()) return at::Tensor();
    return empty ? at::zeros(p.sizes(), p.options()) : at::empty(p.sizes(), p.options());
  };
  return {at::empty(x.sizes(), x.options()), make(weight), make(bias)};
}

// ---------------------------------------------------------------------------------------------
// The schemas' adapters: a kernel, given the schema's arguments.
// ---------------------------------------------------------------------------------------------
template <ForwardKernel Forward, BackwardKernel Backward>
struct Adapters {
  using T = const at::Tensor&;
  using Pair = std::tuple<at::Tensor, at::Tensor>;

  static at::Tensor forward(T x, T weight, double eps) {
    return std::get<0>(Forward(x, {}, weight, {}, eps));
  }
  static at::Tensor forward_bias(T x, T weight, T bias, double eps) {
    return std::get<0>(Forward(x, {}, weight, bias, eps));
  }
  static Outputs forward_residual(T x, T residual, T weight, double eps) {
    return Forward(x, residual, weight, {}, eps);
  }
  static Outputs forward_residual_bias(T x, T residual, T weight, T bias, double eps) {
    return Forward(x, residual, weight, bias, eps);
  }

  static Pair backward(T grad_out, T x, T weight, double eps) {
    auto [grad_x, grad_weight, grad_bias] = Backward(grad_out, {}, x, weight, {}, eps);
    return {grad_x, grad_weight};
  }
  static Grads backward_bias(T grad_out, T x, T weight, T bias, double eps) {
    return Backward(grad_out, {}, x, weight, bias, eps);
  }
  static Pair backward_residual(T grad_out, const std::optional<at::Tensor>& grad_residual_out,
                                T residual_out, T weight, double eps) {
    auto [grad_x, grad_weight, grad_bias] =
        Backward(grad_out, grad_residual_out.value_or(at::Tensor()), residual_out, weight, {}, eps);
    return {grad_x, grad_weight};
  }
  static Grads backward_residual_bias(T grad_out, const std::optional<at::Tensor>& grad_residual_out,
                                      T residual_out, T weight, T bias, double eps) {
    return Backward(grad_out, grad_residual_out.value_or(at::Tensor()), residual_out, weight, bias, eps);
  }
};

// Registers the kernels `Forward` and `Backward` of the operator of norm `Norm` for `key`.
template <template <typename> class Norm, ForwardKernel Forward, BackwardKernel Backward>
void register_kernels(torch::Library& m, c10::DispatchKey key) {
  const std::string name = core::unqualified(Norm<float>::kName);
  const std::string backward_name = name + "_backward";
  using A = Adapters<Forward, Backward>;
  constexpr bool kBias = Norm<float>::kBias;
  constexpr bool kResidual = Norm<float>::kResidual;
  if constexpr (kResidual && kBias) {
    m.impl(name.c_str(), torch::dispatch(key, TORCH_FN(A::forward_residual_bias)));
    m.impl(backward_name.c_str(), torch::dispatch(key, TORCH_FN(A::backward_residual_bias)));
  } else if constexpr (kResidual) {
    m.impl(name.c_str(), torch::dispatch(key, TORCH_FN(A::forward_residual)));
    m.impl(backward_name.c_str(), torch::dispatch(key, TORCH_FN(A::backward_residual)));
  } else if constexpr (kBias) {
    m.impl(name.c_str(), torch::dispatch(key, TORCH_FN(A::forward_bias)));
    m.impl(backward_name.c_str(), torch::dispatch(key, TORCH_FN(A::backward_bias)));
  } else {
    m.impl(name.c_str(), torch::dispatch(key, TORCH_FN(A::forward)));
    m.impl(backward_name.c_str(), torch::dispatch(key, TORCH_FN(A::backward)));
  }
}

// ---------------------------------------------------------------------------------------------
// The operators through the dispatcher, in the kernels' form (below the Autograd key when called
// from the autograd formula).
// ---------------------------------------------------------------------------------------------
// The arguments a schema has: `value` where `kPresent`, else none.
template <bool kPresent, typename V>
auto argument_if(const V& value) {
  if constexpr (kPresent) {
    return std::tuple<const V&>(value);
  } else {
    return std::tuple<>();
  }
}

// Calls the operator (kBackward: its backward) of norm `Norm` with `arguments`, then eps.
template <template <typename> class Norm, bool kBackward, typename Result, typename... Arguments>
Result call_operator(const std::tuple<const Arguments&...>& arguments, double eps) {
  static const std::string name = std::string(Norm<float>::kName) + (kBackward ? "_backward" : "");
  static const auto op = c10::Dispatcher::singleton()
                             .findSchemaOrThrow(name.c_str(), "")
                             .template typed<Result(const Arguments&..., double)>();
  return std::apply([&](const Arguments&... a) { return op.call(a..., eps); }, arguments);
}

template <template <typename> class Norm>
Outputs call_forward(const at::Tensor& x, const at::Tensor& residual, const at::Tensor& weight,
                     const at::Tensor& bias, double eps) {
  constexpr bool kBias = Norm<float>::kBias;
  constexpr bool kResidual = Norm<float>::kResidual;
  const auto arguments = std::tuple_cat(std::tuple<const at::Tensor&>(x), argument_if<kResidual>(residual),
                                        std::tuple<const at::Tensor&>(weight), argument_if<kBias>(bias));
  if constexpr (kResidual) {
    return call_operator<Norm, false, Outputs>(arguments, eps);
  } else {
    return {call_operator<Norm, false, at::Tensor>(arguments, eps), at::Tensor()};
  }
}

template <template <typename> class Norm>
Grads call_backward(const at::Tensor& grad_out, const at::Tensor& grad_residual_out, const at::Tensor& x,
                    const at::Tensor& weight, const at::Tensor& bias, double eps) {
  constexpr bool kBias = Norm<float>::kBias;
  constexpr bool kResidual = Norm<float>::kResidual;
  const std::optional<at::Tensor> grad_residual =
      grad_residual_out.defined() ? std::optional<at::Tensor>(grad_residual_out) : std::nullopt;
  const auto arguments = std::tuple_cat(
      std::tuple<const at::Tensor&>(grad_out), argument_if<kResidual>(grad_residual),
      std::tuple<const at::Tensor&>(x), std::tuple<const at::Tensor&>(weight), argument_if<kBias>(bias));
  if constexpr (kBias) {
    return call_operator<Norm, true, Grads>(arguments, eps);
  } else {
    auto [grad_x, grad_weight] =
        call_operator<Norm, true, std::tuple<at::Tensor, at::Tensor>>(arguments, eps);
    return {grad_x, grad_weight, at::Tensor()};
  }
}

}  // namespace generated_rmsnorm::row_norm
