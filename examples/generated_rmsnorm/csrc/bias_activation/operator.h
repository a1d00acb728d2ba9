// The bias + activation family, y = act(x + bias) for x of shape [..., N] and bias of shape [N]:
// everything an operator of the family gets from the project, written once. An operator adds its
// activation (csrc/<operator>.h) and one line per device to register it (csrc/<operator>.cpp,
// csrc/<operator>_cuda.cu). This header holds the operator's schema, its argument checks, its CPU
// entry points, its autograd formula and define_operator(), which registers them; the CPU loops are in
// bias_activation/cpu.h, the CUDA kernels in bias_activation/cuda.cuh.
#pragma once

#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/Parallel.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <c10/macros/Macros.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>

#include <string>
#include <tuple>

#include "bias_activation/checks.h"
#include "bias_activation/cpu.h"
#include "core/autograd.h"
#include "core/common.h"

namespace generated_rmsnorm::bias_activation {

// ---------------------------------------------------------------------------------------------
// CPU entry points. Non-contiguous inputs are copied to contiguous memory first; the outputs are
// always contiguous (the fake kernels in Python promise the same). The loops are in cpu.h.
// ---------------------------------------------------------------------------------------------
template <template <typename> class Op>
at::Tensor forward_cpu(const at::Tensor& x_in, const at::Tensor& bias_in) {
  check_inputs(core::unqualified(Op<float>::kName), x_in, bias_in);
  const at::Tensor x = x_in.contiguous();
  const at::Tensor bias = bias_in.contiguous();
  at::Tensor y = at::empty(x.sizes(), x.options());
  if (y.numel() > 0) cpu::forward<Op>(x, bias, y);
  return y;
}

template <template <typename> class Op>
std::tuple<at::Tensor, at::Tensor> backward_cpu(const at::Tensor& grad_out_in, const at::Tensor& x_in,
                                                const at::Tensor& bias_in) {
  check_inputs(core::unqualified(Op<float>::kName), x_in, bias_in, grad_out_in);
  const at::Tensor grad_out = grad_out_in.contiguous();
  const at::Tensor x = x_in.contiguous();
  const at::Tensor bias = bias_in.contiguous();
  at::Tensor grad_x = at::empty(x.sizes(), x.options());
  if (x.numel() == 0) return {grad_x, at::zeros(bias.sizes(), bias.options())};  // a sum over no rows
  at::Tensor grad_bias = at::empty(bias.sizes(), bias.options());
  cpu::backward<Op>(grad_out, x, bias, grad_x, grad_bias);
  return {grad_x, grad_bias};
}

// ---------------------------------------------------------------------------------------------
// Autograd, registered for the Autograd dispatch key.
//
// The formula is C++ rather than torch.library.register_autograd: a Python formula adds two Python
// calls and a hand-over of the GIL to the autograd engine's thread to every forward+backward, which
// on small and medium tensors, where the host sets the pace, costs more than the fused kernels save.
// torch.compile traces through it like any other (the fake kernels are registered in Python), and
// torch.library.opcheck checks it. Double backward (differentiating the gradient, as a gradient
// penalty does) is refused with an error that names the operator: without a formula for the
// backward operator, PyTorch would return zero second derivatives with only a warning. Forward-mode
// AD is refused too (core::refuse_forward_ad).
// ---------------------------------------------------------------------------------------------
template <template <typename> class Op>
at::Tensor call_forward(const at::Tensor& x, const at::Tensor& bias) {
  static const auto op = c10::Dispatcher::singleton()
                             .findSchemaOrThrow(Op<float>::kName, "")
                             .template typed<at::Tensor(const at::Tensor&, const at::Tensor&)>();
  return op.call(x, bias);
}

template <template <typename> class Op>
std::tuple<at::Tensor, at::Tensor> call_backward(const at::Tensor& grad_out, const at::Tensor& x,
                                                 const at::Tensor& bias) {
  static const std::string name = std::string(Op<float>::kName) + "_backward";
  static const auto op = c10::Dispatcher::singleton()
                             .findSchemaOrThrow(name.c_str(), "")
                             .template typed<std::tuple<at::Tensor, at::Tensor>(
                                 const at::Tensor&, const at::Tensor&, const at::Tensor&)>();
  return op.call(grad_out, x, bias);
}

template <template <typename> class Op>
class AutogradFunction : public torch::autograd::Function<AutogradFunction<Op>> {
 public:
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x,
                            const at::Tensor& bias) {
    // The backward recomputes x + bias from the saved inputs, which the caller holds anyway: the
    // formula keeps no tensor of its own the size of x (neither x + bias nor y).
    ctx->save_for_backward({x, bias});
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    return call_forward<Op>(x, bias);
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad_outputs) {
    const torch::autograd::variable_list saved = ctx->get_saved_variables();
    auto [grad_x, grad_bias] = call_backward<Op>(grad_outputs[0], saved[0], saved[1]);
    return {ctx->needs_input_grad(0) ? grad_x : at::Tensor(),
            ctx->needs_input_grad(1) ? grad_bias : at::Tensor()};
  }
};

// The backward operator as a differentiable function whose own derivative is refused.
template <template <typename> class Op>
class BackwardFunction : public torch::autograd::Function<BackwardFunction<Op>> {
 public:
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* /*ctx*/,
                                                const at::Tensor& grad_out, const at::Tensor& x,
                                                const at::Tensor& bias) {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    auto [grad_x, grad_bias] = call_backward<Op>(grad_out, x, bias);
    return {grad_x, grad_bias};
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* /*ctx*/,
                                                 torch::autograd::variable_list /*grad_outputs*/) {
    const std::string op = core::unqualified(Op<float>::kName);
    TORCH_CHECK_NOT_IMPLEMENTED(false, op,
                                ": double backward is not supported (differentiating its gradient, as a "
                                "gradient penalty with create_graph=True does); where second derivatives "
                                "are needed, use reference_",
                                op, ", which composes PyTorch operators");
    return {};
  }
};

template <template <typename> class Op>
at::Tensor forward_autograd(const at::Tensor& x, const at::Tensor& bias) {
  core::refuse_forward_ad(Op<float>::kName, {&x, &bias});
  if (core::nothing_to_record({&x, &bias})) {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    return call_forward<Op>(x, bias);
  }
  return AutogradFunction<Op>::apply(x, bias);
}

template <template <typename> class Op>
std::tuple<at::Tensor, at::Tensor> backward_autograd(const at::Tensor& grad_out, const at::Tensor& x,
                                                     const at::Tensor& bias) {
  core::refuse_forward_ad(Op<float>::kName, {&grad_out, &x, &bias});
  if (core::nothing_to_record({&grad_out, &x, &bias})) {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    return call_backward<Op>(grad_out, x, bias);
  }
  torch::autograd::variable_list grads = BackwardFunction<Op>::apply(grad_out, x, bias);
  return {grads[0], grads[1]};
}

// ---------------------------------------------------------------------------------------------
// The operator's schemas, the only place where the family's signatures are written, and the
// registration of its CPU and autograd kernels. Python reaches the operators as
// torch.ops.<namespace>.<operator> and torch.ops.<namespace>.<operator>_backward.
//
// define_operator() does all three. An operator with a CPU kernel of its own calls
// define_schemas() and register_autograd() in its TORCH_LIBRARY_FRAGMENT block and registers its
// kernels for the CPU key itself (README: "Which file to edit").
// ---------------------------------------------------------------------------------------------
template <template <typename> class Op>
void define_schemas(torch::Library& m) {
  const std::string name = core::unqualified(Op<float>::kName);
  const std::string forward = name + "(Tensor x, Tensor bias) -> Tensor";
  const std::string backward = name + "_backward(Tensor grad_out, Tensor x, Tensor bias) -> (Tensor, Tensor)";
  m.def(forward.c_str());
  m.def(backward.c_str());
}

template <template <typename> class Op>
void register_cpu(torch::Library& m) {
  const std::string name = core::unqualified(Op<float>::kName);
  const std::string backward_name = name + "_backward";
  m.impl(name.c_str(), torch::dispatch(c10::DispatchKey::CPU, TORCH_FN(forward_cpu<Op>)));
  m.impl(backward_name.c_str(), torch::dispatch(c10::DispatchKey::CPU, TORCH_FN(backward_cpu<Op>)));
}

template <template <typename> class Op>
void register_autograd(torch::Library& m) {
  const std::string name = core::unqualified(Op<float>::kName);
  const std::string backward_name = name + "_backward";
  m.impl(name.c_str(), torch::dispatch(c10::DispatchKey::Autograd, TORCH_FN(forward_autograd<Op>)));
  m.impl(backward_name.c_str(), torch::dispatch(c10::DispatchKey::Autograd, TORCH_FN(backward_autograd<Op>)));
}

template <template <typename> class Op>
void define_operator(torch::Library& m) {
  define_schemas<Op>(m);
  register_cpu<Op>(m);
  register_autograd<Op>(m);
}

}  // namespace generated_rmsnorm::bias_activation

// The line an operator's .cpp ends with: BIAS_ACTIVATION_OPERATOR(<namespace>, <activation struct>).
#define BIAS_ACTIVATION_OPERATOR(ns, Op)                              \
  TORCH_LIBRARY_FRAGMENT(ns, m) {                                     \
    ::ns::bias_activation::define_operator<::ns::activations::Op>(m); \
  }
