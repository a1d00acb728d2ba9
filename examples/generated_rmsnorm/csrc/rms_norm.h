// rms_norm: RMSNorm over the last dimension of x (shape [..., N]):
//   y = x / sqrt(mean(x^2) + eps) * weight, weight of shape [N].
//
// The operator's norm: which statistics and parameters the row normalization family's CPU loops
// and CUDA kernels (csrc/row_norm/) compute, and the default of eps (written here only: the schema
// and the Python API take it from here). Change it together with its reference in PyTorch operators,
// which the tests compare with:
//   src/generated_rmsnorm/ops/rms_norm.py
#pragma once

namespace generated_rmsnorm::norms {

template <typename T>
struct RmsNorm {
  // Subtract each row's mean (LayerNorm), and add a learnable bias.
  static constexpr bool kCentered = false;
  static constexpr bool kBias = false;
  // The rows are scaled by kWeightOffset + weight: 1 for a zero-centred weight (Gemma's), else 0.
  static constexpr double kWeightOffset = 0;
  // Add `residual` to x first, return the sum too and normalize it (vLLM's fused_add_rms_norm).
  static constexpr bool kResidual = false;
  static constexpr const char* kDefaultEps = "1e-06";
  static constexpr const char* kName = "generated_rmsnorm::rms_norm";
};

}  // namespace generated_rmsnorm::norms
