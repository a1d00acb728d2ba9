// What every operator family's autograd formulas share.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/core/grad_mode.h>

#include <initializer_list>

namespace generated_gelu::core {

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

}  // namespace generated_gelu::core
