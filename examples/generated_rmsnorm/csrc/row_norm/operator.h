// The row normalization family: y = (x - mean) * rstd * weight (+ bias), x of shape [..., N]
// normalized over its last dimension, weight and bias of shape [N]; RMSNorm without the mean and the
// bias. Everything an operator of the family gets from the project, written once: its schemas, its
// CPU entry points, its autograd formula and define_operator(), which registers them. An operator adds
// its norm (csrc/<operator>.h: which norm, its name) and one line per device to register it
// (csrc/<operator>.cpp, csrc/<operator>_cuda.cu). The CPU loops are in row_norm/cpu.h.
//
// The schemas: with a bias (LayerNorm)
//   <op>(Tensor x, Tensor weight, Tensor bias, float eps=<default>) -> Tensor
//   <op>_backward(Tensor grad_out, Tensor x, Tensor weight, Tensor bias, float eps)
//       -> (Tensor, Tensor, Tensor)
// without (RMSNorm)
//   <op>(Tensor x, Tensor weight, float eps=<default>) -> Tensor
//   <op>_backward(Tensor grad_out, Tensor x, Tensor weight, float eps) -> (Tensor, Tensor)
// The backward recomputes each row's statistics from x (it reads the row anyway) instead of saving
// them: the forward keeps no tensor of its own, and the backward needs only the inputs.
#pragma once

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>

#include <string>
#include <tuple>

#include "core/autograd.h"
#include "core/common.h"
#include "row_norm/checks.h"
#include "row_norm/cpu.h"
#include "row_norm/registration.h"

namespace generated_rmsnorm::row_norm {

// ---------------------------------------------------------------------------------------------
// CPU entry points, on (x, weight, bias or undefined, eps); the schemas' adapters are below.
// Non-contiguous inputs are copied to contiguous memory first.
// ---------------------------------------------------------------------------------------------
template <template <typename> class Norm>
at::Tensor forward_cpu(const at::Tensor& x_in, const at::Tensor& weight, const at::Tensor& bias, double eps) {
  check_inputs(core::unqualified(Norm<float>::kName), x_in, weight, bias, eps);
  const at::Tensor x = x_in.contiguous();
  at::Tensor y = at::empty(x.sizes(), x.options());
  if (y.numel() > 0) cpu::forward<Norm>(x, weight, bias, eps, y);
  return y;
}

template <template <typename> class Norm>
Grads backward_cpu(const at::Tensor& grad_out_in, const at::Tensor& x_in, const at::Tensor& weight,
                   const at::Tensor& bias, double eps) {
  check_inputs(core::unqualified(Norm<float>::kName), x_in, weight, bias, eps, grad_out_in);
  const at::Tensor grad_out = grad_out_in.contiguous();
  const at::Tensor x = x_in.contiguous();
  Grads grads = allocate_grads(x, weight, bias);
  auto& [grad_x, grad_weight, grad_bias] = grads;
  if (x.numel() > 0) cpu::backward<Norm>(grad_out, x, weight, eps, grad_x, grad_weight, grad_bias);
  return grads;
}

// ---------------------------------------------------------------------------------------------
// The operators through the dispatcher (below the Autograd key when called from the formula).
// ---------------------------------------------------------------------------------------------
template <template <typename> class Norm>
at::Tensor call_forward(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, double eps) {
  if constexpr (Norm<float>::kBias) {
    static const auto op =
        c10::Dispatcher::singleton()
            .findSchemaOrThrow(Norm<float>::kName, "")
            .template typed<at::Tensor(const at::Tensor&, const at::Tensor&, const at::Tensor&, double)>();
    return op.call(x, weight, bias, eps);
  } else {
    static const auto op = c10::Dispatcher::singleton()
                               .findSchemaOrThrow(Norm<float>::kName, "")
                               .template typed<at::Tensor(const at::Tensor&, const at::Tensor&, double)>();
    return op.call(x, weight, eps);
  }
}

template <template <typename> class Norm>
Grads call_backward(const at::Tensor& grad_out, const at::Tensor& x, const at::Tensor& weight,
                    const at::Tensor& bias, double eps) {
  static const std::string name = std::string(Norm<float>::kName) + "_backward";
  if constexpr (Norm<float>::kBias) {
    static const auto op = c10::Dispatcher::singleton()
                               .findSchemaOrThrow(name.c_str(), "")
                               .template typed<Grads(const at::Tensor&, const at::Tensor&, const at::Tensor&,
                                                     const at::Tensor&, double)>();
    return op.call(grad_out, x, weight, bias, eps);
  } else {
    static const auto op = c10::Dispatcher::singleton()
                               .findSchemaOrThrow(name.c_str(), "")
                               .template typed<std::tuple<at::Tensor, at::Tensor>(
                                   const at::Tensor&, const at::Tensor&, const at::Tensor&, double)>();
    auto [grad_x, grad_weight] = op.call(grad_out, x, weight, eps);
    return {grad_x, grad_weight, at::Tensor()};
  }
}

// ---------------------------------------------------------------------------------------------
// Autograd, registered for the Autograd dispatch key (in C++ for the reasons given in
// bias_activation/operator.h: no Python on the autograd path). Double backward and forward-mode AD
// are refused with errors that name the operator.
// ---------------------------------------------------------------------------------------------
// A custom autograd function takes defined tensors only: without a bias, its forward has no bias
// argument (the two overloads below), and the backward returns one gradient per argument.
template <template <typename> class Norm>
class AutogradFunction : public torch::autograd::Function<AutogradFunction<Norm>> {
 public:
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x,
                            const at::Tensor& weight, const at::Tensor& bias, double eps) {
    ctx->save_for_backward({x, weight, bias});
    ctx->saved_data["eps"] = eps;
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    return call_forward<Norm>(x, weight, bias, eps);
  }

  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x,
                            const at::Tensor& weight, double eps) {
    return forward(ctx, x, weight, at::Tensor(), eps);
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad_outputs) {
    const torch::autograd::variable_list saved = ctx->get_saved_variables();
    auto [grad_x, grad_weight, grad_bias] =
        call_backward<Norm>(grad_outputs[0], saved[0], saved[1], saved[2], ctx->saved_data["eps"].toDouble());
    torch::autograd::variable_list grads{ctx->needs_input_grad(0) ? grad_x : at::Tensor(),
                                         ctx->needs_input_grad(1) ? grad_weight : at::Tensor()};
    if constexpr (Norm<float>::kBias) grads.push_back(ctx->needs_input_grad(2) ? grad_bias : at::Tensor());
    grads.push_back(at::Tensor());  // eps
    return grads;
  }
};

// The backward operator as a differentiable function whose own derivative is refused.
template <template <typename> class Norm>
class BackwardFunction : public torch::autograd::Function<BackwardFunction<Norm>> {
 public:
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* /*ctx*/,
                                                const at::Tensor& grad_out, const at::Tensor& x,
                                                const at::Tensor& weight, const at::Tensor& bias,
                                                double eps) {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    auto [grad_x, grad_weight, grad_bias] = call_backward<Norm>(grad_out, x, weight, bias, eps);
    return {grad_x, grad_weight, grad_bias};
  }

  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* /*ctx*/,
                                                const at::Tensor& grad_out, const at::Tensor& x,
                                                const at::Tensor& weight, double eps) {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    auto [grad_x, grad_weight, grad_bias] = call_backward<Norm>(grad_out, x, weight, at::Tensor(), eps);
    return {grad_x, grad_weight};
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* /*ctx*/,
                                                 torch::autograd::variable_list /*grad_outputs*/) {
    const std::string op = core::unqualified(Norm<float>::kName);
    TORCH_CHECK_NOT_IMPLEMENTED(false, op,
                                ": double backward is not supported (differentiating its gradient, as a "
                                "gradient penalty with create_graph=True does); where second derivatives "
                                "are needed, use reference_",
                                op, ", which composes PyTorch operators");
    return {};
  }
};

template <template <typename> class Norm>
at::Tensor forward_autograd(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
                            double eps) {
  core::refuse_forward_ad(Norm<float>::kName, {&x, &weight, &bias});
  if (core::nothing_to_record({&x, &weight, &bias})) {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    return call_forward<Norm>(x, weight, bias, eps);
  }
  if constexpr (Norm<float>::kBias) {
    return AutogradFunction<Norm>::apply(x, weight, bias, eps);
  } else {
    return AutogradFunction<Norm>::apply(x, weight, eps);
  }
}

template <template <typename> class Norm>
Grads backward_autograd(const at::Tensor& grad_out, const at::Tensor& x, const at::Tensor& weight,
                        const at::Tensor& bias, double eps) {
  core::refuse_forward_ad(Norm<float>::kName, {&grad_out, &x, &weight, &bias});
  if (core::nothing_to_record({&grad_out, &x, &weight, &bias})) {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    return call_backward<Norm>(grad_out, x, weight, bias, eps);
  }
  if constexpr (Norm<float>::kBias) {
    torch::autograd::variable_list grads = BackwardFunction<Norm>::apply(grad_out, x, weight, bias, eps);
    return {grads[0], grads[1], grads[2]};
  } else {
    torch::autograd::variable_list grads = BackwardFunction<Norm>::apply(grad_out, x, weight, eps);
    return {grads[0], grads[1], at::Tensor()};
  }
}

// ---------------------------------------------------------------------------------------------
// The operator's schemas, the only place where the family's signatures are written, and the
// registration of its CPU and autograd kernels.
// ---------------------------------------------------------------------------------------------
template <template <typename> class Norm>
void define_schemas(torch::Library& m) {
  const std::string name = core::unqualified(Norm<float>::kName);
  const std::string bias = Norm<float>::kBias ? "Tensor bias, " : "";
  const std::string grads = Norm<float>::kBias ? "(Tensor, Tensor, Tensor)" : "(Tensor, Tensor)";
  const std::string forward =
      name + "(Tensor x, Tensor weight, " + bias + "float eps=" + Norm<float>::kDefaultEps + ") -> Tensor";
  const std::string backward =
      name + "_backward(Tensor grad_out, Tensor x, Tensor weight, " + bias + "float eps) -> " + grads;
  m.def(forward.c_str());
  m.def(backward.c_str());
}

template <template <typename> class Norm>
void define_operator(torch::Library& m) {
  define_schemas<Norm>(m);
  register_kernels<Norm, forward_cpu<Norm>, backward_cpu<Norm>>(m, c10::DispatchKey::CPU);
  register_kernels<Norm, forward_autograd<Norm>, backward_autograd<Norm>>(m, c10::DispatchKey::Autograd);
}

}  // namespace generated_rmsnorm::row_norm

// The line an operator's .cpp ends with: ROW_NORM_OPERATOR(<namespace>, <norm struct>).
#define ROW_NORM_OPERATOR(ns, Norm)                        \
  TORCH_LIBRARY_FRAGMENT(ns, m) {                          \
    ::ns::row_norm::define_operator<::ns::norms::Norm>(m); \
  }
