// The row normalization family: y = (x - mean) * rstd * weight (+ bias), x of shape [..., N]
// normalized over its last dimension, weight and bias of shape [N]; RMSNorm without the mean and the
// bias. With a residual add, the operator first adds `residual` to x and returns the sum as well
// (residual_out, the new residual stream), which it normalizes. Everything an operator of the family
// gets from the project, written once: its schemas, its CPU entry points, its autograd formula and
// define_operator(), which registers them. An operator adds its norm (csrc/<operator>.h: which norm,
// whether it adds a residual, its name) and one line per device to register it (csrc/<operator>.cpp,
// csrc/<operator>_cuda.cu). The CPU loops are in row_norm/cpu.h.
//
// The schemas (bias for LayerNorm only; the residual arguments with a residual add only):
//   <op>(Tensor x, [Tensor residual,] Tensor weight, [Tensor bias,] float eps=<default>)
//       -> Tensor, or with a residual add (Tensor out, Tensor residual_out)
//   <op>_backward(Tensor grad_out, [Tensor? grad_residual_out,] Tensor x or residual_out,
//                 Tensor weight, [Tensor bias,] float eps) -> (Tensor, Tensor[, Tensor])
// The backward recomputes each row's statistics from the tensor the forward normalized (it reads the
// row anyway) instead of saving them: the forward keeps no tensor of its own. With a residual add,
// that tensor is residual_out, which the forward returns; the backward returns the gradient of x,
// which is also that of residual (grad_out's share through the norm plus grad_residual_out).
#pragma once

#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>

#include <optional>
#include <string>
#include <tuple>

#include "core/autograd.h"
#include "core/common.h"
#include "row_norm/checks.h"
#include "row_norm/cpu.h"
#include "row_norm/registration.h"

namespace generated_gelu::row_norm {

// ---------------------------------------------------------------------------------------------
// CPU entry points, in the kernels' form (row_norm/registration.h). Non-contiguous inputs are copied
// to contiguous memory first.
// ---------------------------------------------------------------------------------------------
template <template <typename> class Norm>
Outputs forward_cpu(const at::Tensor& x_in, const at::Tensor& residual_in, const at::Tensor& weight,
                    const at::Tensor& bias, double eps) {
  check_forward<Norm>(core::unqualified(Norm<float>::kName), x_in, residual_in, weight, bias, eps);
  const at::Tensor x = x_in.contiguous();
  const at::Tensor residual = residual_in.defined() ? residual_in.contiguous() : at::Tensor();
  Outputs outputs = allocate_outputs(x, Norm<float>::kResidual);
  const auto& [y, residual_out] = outputs;
  if (x.numel() > 0) cpu::forward<Norm>(x, residual, weight, bias, eps, y, residual_out);
  return outputs;
}

template <template <typename> class Norm>
Grads backward_cpu(const at::Tensor& grad_out_in, const at::Tensor& grad_residual_out_in,
                   const at::Tensor& x_in, const at::Tensor& weight, const at::Tensor& bias, double eps) {
  check_backward<Norm>(core::unqualified(Norm<float>::kName), grad_out_in, grad_residual_out_in, x_in, weight,
                       bias, eps);
  const at::Tensor grad_out = grad_out_in.contiguous();
  const at::Tensor grad_residual_out =
      grad_residual_out_in.defined() ? grad_residual_out_in.contiguous() : at::Tensor();
  const at::Tensor x = x_in.contiguous();
  Grads grads = allocate_grads(x, weight, bias);
  auto& [grad_x, grad_weight, grad_bias] = grads;
  if (x.numel() > 0) {
    cpu::backward<Norm>(grad_out, grad_residual_out, x, weight, eps, grad_x, grad_weight, grad_bias);
  }
  return grads;
}

// ---------------------------------------------------------------------------------------------
// Autograd, registered for the Autograd dispatch key (in C++ for the reasons given in
// bias_activation/operator.h: no Python on the autograd path). Double backward and forward-mode AD
// are refused with errors that name the operator.
// ---------------------------------------------------------------------------------------------
// The arguments an operator does not have (residual, bias) are empty optionals: a custom autograd
// function records defined tensors only, and returns one gradient per argument.
template <template <typename> class Norm>
class AutogradFunction : public torch::autograd::Function<AutogradFunction<Norm>> {
 public:
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x,
                                                const std::optional<at::Tensor>& residual,
                                                const at::Tensor& weight,
                                                const std::optional<at::Tensor>& bias, double eps) {
    // An output whose gradient is not needed (residual_out's, when only y is used) stays undefined
    // instead of a tensor of zeros: the backward then reads no grad_residual_out.
    ctx->set_materialize_grads(false);
    ctx->saved_data["eps"] = eps;
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    auto [y, residual_out] =
        call_forward<Norm>(x, residual.value_or(at::Tensor()), weight, bias.value_or(at::Tensor()), eps);
    // The tensor normalized: x, or residual_out (an output, saved as such).
    ctx->save_for_backward({Norm<float>::kResidual ? residual_out : x, weight, bias.value_or(at::Tensor())});
    if constexpr (Norm<float>::kResidual) {
      return {y, residual_out};
    } else {
      return {y};
    }
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad_outputs) {
    const torch::autograd::variable_list saved = ctx->get_saved_variables();
    const at::Tensor& normalized = saved[0];
    const at::Tensor& grad_y = grad_outputs[0];
    const at::Tensor grad_residual_out = Norm<float>::kResidual ? grad_outputs[1] : at::Tensor();
    at::Tensor grad_x, grad_weight, grad_bias;
    if (grad_y.defined()) {
      std::tie(grad_x, grad_weight, grad_bias) = call_backward<Norm>(
          grad_y, grad_residual_out, normalized, saved[1], saved[2], ctx->saved_data["eps"].toDouble());
    } else if (grad_residual_out.defined()) {
      grad_x = grad_residual_out;  // only residual_out is used: the sum passes its gradient through
    }
    // needs_input_grad counts the tensors recorded: x, residual (with a residual add), weight, bias
    // (with a bias).
    constexpr bool kResidual = Norm<float>::kResidual;
    constexpr int kWeight = kResidual ? 2 : 1;
    const auto needed = [&](const at::Tensor& grad, bool present, int index) {
      return present && ctx->needs_input_grad(index) ? grad : at::Tensor();
    };
    return {needed(grad_x, true, 0), needed(grad_x, kResidual, 1), needed(grad_weight, true, kWeight),
            needed(grad_bias, Norm<float>::kBias, kWeight + 1), at::Tensor()};  // ..., eps
  }
};

// The backward operator as a differentiable function whose own derivative is refused.
template <template <typename> class Norm>
class BackwardFunction : public torch::autograd::Function<BackwardFunction<Norm>> {
 public:
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* /*ctx*/,
                                                const at::Tensor& grad_out,
                                                const std::optional<at::Tensor>& grad_residual_out,
                                                const at::Tensor& x, const at::Tensor& weight,
                                                const std::optional<at::Tensor>& bias, double eps) {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    auto [grad_x, grad_weight, grad_bias] = call_backward<Norm>(
        grad_out, grad_residual_out.value_or(at::Tensor()), x, weight, bias.value_or(at::Tensor()), eps);
    if constexpr (Norm<float>::kBias) {
      return {grad_x, grad_weight, grad_bias};
    } else {
      return {grad_x, grad_weight};
    }
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

// An optional argument for the autograd functions: empty where the tensor is undefined.
inline std::optional<at::Tensor> optional(const at::Tensor& t) {
  return t.defined() ? std::optional<at::Tensor>(t) : std::nullopt;
}

template <template <typename> class Norm>
Outputs forward_autograd(const at::Tensor& x, const at::Tensor& residual, const at::Tensor& weight,
                         const at::Tensor& bias, double eps) {
  core::refuse_forward_ad(Norm<float>::kName, {&x, &residual, &weight, &bias});
  if (core::nothing_to_record({&x, &residual, &weight, &bias})) {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    return call_forward<Norm>(x, residual, weight, bias, eps);
  }
  torch::autograd::variable_list outputs =
      AutogradFunction<Norm>::apply(x, optional(residual), weight, optional(bias), eps);
  return {outputs[0], Norm<float>::kResidual ? outputs[1] : at::Tensor()};
}

template <template <typename> class Norm>
Grads backward_autograd(const at::Tensor& grad_out, const at::Tensor& grad_residual_out, const at::Tensor& x,
                        const at::Tensor& weight, const at::Tensor& bias, double eps) {
  core::refuse_forward_ad(Norm<float>::kName, {&grad_out, &grad_residual_out, &x, &weight, &bias});
  if (core::nothing_to_record({&grad_out, &grad_residual_out, &x, &weight, &bias})) {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    return call_backward<Norm>(grad_out, grad_residual_out, x, weight, bias, eps);
  }
  torch::autograd::variable_list grads =
      BackwardFunction<Norm>::apply(grad_out, optional(grad_residual_out), x, weight, optional(bias), eps);
  return {grads[0], grads[1], Norm<float>::kBias ? grads[2] : at::Tensor()};
}

// ---------------------------------------------------------------------------------------------
// The operator's schemas, the only place where the family's signatures are written, and the
// registration of its CPU and autograd kernels.
// ---------------------------------------------------------------------------------------------
template <template <typename> class Norm>
void define_schemas(torch::Library& m) {
  constexpr bool kResidual = Norm<float>::kResidual;
  const std::string name = core::unqualified(Norm<float>::kName);
  const std::string bias = Norm<float>::kBias ? "Tensor bias, " : "";
  const std::string grads = Norm<float>::kBias ? "(Tensor, Tensor, Tensor)" : "(Tensor, Tensor)";
  const std::string forward = name + "(Tensor x, " + (kResidual ? "Tensor residual, " : "") +
                              "Tensor weight, " + bias + "float eps=" + Norm<float>::kDefaultEps + ") -> " +
                              (kResidual ? "(Tensor out, Tensor residual_out)" : "Tensor");
  const std::string backward =
      name + "_backward(Tensor grad_out, " +
      (kResidual ? "Tensor? grad_residual_out, Tensor residual_out, " : "Tensor x, ") + "Tensor weight, " +
      bias + "float eps) -> " + grads;
  m.def(forward.c_str());
  m.def(backward.c_str());
}

template <template <typename> class Norm>
void define_operator(torch::Library& m) {
  define_schemas<Norm>(m);
  register_kernels<Norm, forward_cpu<Norm>, backward_cpu<Norm>>(m, c10::DispatchKey::CPU);
  register_kernels<Norm, forward_autograd<Norm>, backward_autograd<Norm>>(m, c10::DispatchKey::Autograd);
}

}  // namespace generated_gelu::row_norm

// The line an operator's .cpp ends with: ROW_NORM_OPERATOR(<namespace>, <norm struct>).
#define ROW_NORM_OPERATOR(ns, Norm)                        \
  TORCH_LIBRARY_FRAGMENT(ns, m) {                          \
    ::ns::row_norm::define_operator<::ns::norms::Norm>(m); \
  }
