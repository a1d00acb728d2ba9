// What every operator family's autograd formulas share.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/core/grad_mode.h>

#include <c10/util/Exception.h>

#include <initializer_list>

#include "core/common.h"

namespace generated_rmsnorm::core {

// True when autograd has nothing to record: grad mode is off (torch.no_grad, inference, a backward
// pass without create_graph) or no input requires a gradient. An autograd kernel then calls the
// operator's kernels directly (below the Autograd key), so such calls cost no more than an operator
// without an autograd formula.
inline bool nothing_to_record(std::initializer_list<const at::Tensor*> inputs) {
  if (!at::GradMode::is_enabled()) return true;
  for (const at::Tensor* input : inputs) {
    if (input->defined() && input->requires_grad()) return false;
  }
  return true;
}

// Forward-mode AD (torch.func.jvp, torch.autograd.forward_ad) is refused with an error that names
// the operator: a C++ autograd formula has no forward-mode rule, and a call that skips the formula
// (above) would return a result without a tangent, i.e. silently zero directional derivatives.
// The name is built only for the error: this runs on every call.
inline void refuse_forward_ad(const char* qualified_name, std::initializer_list<const at::Tensor*> inputs) {
  for (const at::Tensor* input : inputs) {
    TORCH_CHECK_NOT_IMPLEMENTED(!(input->defined() && input->_fw_grad(/*level=*/0).defined()),
                                unqualified(qualified_name),
                                ": forward-mode AD (torch.func.jvp, torch.autograd.forward_ad) is not "
                                "supported; where it is needed, use reference_",
                                unqualified(qualified_name), ", which composes PyTorch operators");
  }
}

}  // namespace generated_rmsnorm::core
