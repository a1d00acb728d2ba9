// Autograd formula of generated_gelu::fused_bias_gelu,
// registered for the Autograd dispatch key.
//
// It is written in C++ rather than with torch.library.register_autograd in Python because a
// Python formula costs every forward+backward two Python calls and a hand-over of the GIL to the
// autograd engine's device thread, enough to make the fused operator slower than eager PyTorch on
// small and medium tensors, where the CPU, not the GPU, sets the pace. torch.compile traces through
// this formula like any other (the fake kernels are registered in Python), and
// torch.library.opcheck checks it.
//
// Double backward (differentiating the gradient, as a gradient penalty does) is refused with an
// error that names the operator: the backward operator is registered here too, with a formula that
// raises. Without it, PyTorch would return zero second derivatives with only a warning.
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>

#include "fused_bias_gelu.h"

namespace generated_gelu::fused_bias_gelu {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::Function;
using torch::autograd::variable_list;

constexpr const char* kOpName = "fused_bias_gelu";
// The operators' names in the dispatcher.
constexpr const char* kForwardName =
    "generated_gelu::"
    "fused_bias_gelu";
constexpr const char* kBackwardName =
    "generated_gelu::"
    "fused_bias_gelu_backward";

at::Tensor call_forward(const at::Tensor& x, const at::Tensor& bias) {
  static const auto op = c10::Dispatcher::singleton()
                             .findSchemaOrThrow(kForwardName, "")
                             .typed<at::Tensor(const at::Tensor&, const at::Tensor&)>();
  return op.call(x, bias);
}

std::tuple<at::Tensor, at::Tensor> call_backward(const at::Tensor& grad_out, const at::Tensor& x,
                                                 const at::Tensor& bias) {
  static const auto op = c10::Dispatcher::singleton()
                             .findSchemaOrThrow(kBackwardName, "")
                             .typed<std::tuple<at::Tensor, at::Tensor>(const at::Tensor&, const at::Tensor&,
                                                                       const at::Tensor&)>();
  return op.call(grad_out, x, bias);
}

// True when autograd has nothing to record: grad mode is off (torch.no_grad, inference, a backward
// pass without create_graph) or no input requires a gradient. The kernels are then called directly,
// so such calls cost no more than an operator without an autograd formula.
bool nothing_to_record(std::initializer_list<const at::Tensor*> inputs) {
  if (!at::GradMode::is_enabled()) return true;
  for (const at::Tensor* input : inputs) {
    if (input->requires_grad()) return false;
  }
  return true;
}

class FusedBiasGeluFunction  // the name of the outputs' grad_fn
    : public Function<FusedBiasGeluFunction> {
 public:
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& x, const at::Tensor& bias) {
    // The backward recomputes x + bias from the inputs, which the caller holds anyway: nothing
    // the size of x is saved (PyTorch drops the context at once when no input needs a gradient).
    ctx->save_for_backward({x, bias});
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    return call_forward(x, bias);
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    const variable_list saved = ctx->get_saved_variables();
    auto [grad_x, grad_bias] = call_backward(grad_outputs[0], saved[0], saved[1]);
    return {ctx->needs_input_grad(0) ? grad_x : at::Tensor(),
            ctx->needs_input_grad(1) ? grad_bias : at::Tensor()};
  }
};

// The backward operator as a differentiable function whose own derivative is refused.
class FusedBiasGeluBackwardFunction  // the grad_fn of the gradients
    : public Function<FusedBiasGeluBackwardFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const at::Tensor& grad_out, const at::Tensor& x,
                               const at::Tensor& bias) {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    auto [grad_x, grad_bias] = call_backward(grad_out, x, bias);
    return {grad_x, grad_bias};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    TORCH_CHECK_NOT_IMPLEMENTED(
        false, kOpName,
        ": double backward is not supported (differentiating its gradient, as a gradient "
        "penalty with create_graph=True does); where second derivatives are needed, use "
        "reference_",
        kOpName, ", which composes PyTorch operators");
    return {};
  }
};

at::Tensor forward_autograd(const at::Tensor& x, const at::Tensor& bias) {
  if (nothing_to_record({&x, &bias})) {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    return call_forward(x, bias);
  }
  return FusedBiasGeluFunction::apply(x, bias);
}

std::tuple<at::Tensor, at::Tensor> backward_autograd(const at::Tensor& grad_out, const at::Tensor& x,
                                                     const at::Tensor& bias) {
  if (nothing_to_record({&grad_out, &x, &bias})) {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    return call_backward(grad_out, x, bias);
  }
  variable_list grads = FusedBiasGeluBackwardFunction::apply(grad_out, x, bias);
  return {grads[0], grads[1]};
}

}  // namespace

}  // namespace generated_gelu::fused_bias_gelu

TORCH_LIBRARY_IMPL(generated_gelu, Autograd, m) {
  namespace op = generated_gelu::fused_bias_gelu;
  m.impl("fused_bias_gelu", &op::forward_autograd);
  m.impl("fused_bias_gelu_backward", &op::backward_autograd);
}
