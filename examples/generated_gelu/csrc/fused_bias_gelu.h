// fused_bias_gelu: y = gelu_tanh(x + bias) for x of shape [..., N] and bias of shape [N].
//
// The operator's math: forward() and backward() of its activation, which the family's CUDA kernels
// and CPU loops (csrc/bias_activation/) compile for each dtype; every name of the math is a member
// of the struct, so two operators' helpers never meet. Change it together with its reference in
// PyTorch operators, which the tests compare with:
//   src/generated_gelu/ops/fused_bias_gelu.py
#pragma once

#include "bias_activation/activation.h"

namespace generated_gelu::activations {

template <typename T>
struct FusedBiasGelu {
  // GELU, tanh approximation: 0.5 * h * (1 + tanh(u)) with u = sqrt(2/pi) * (h + 0.044715 h^3).
  // Written as h * sigmoid(2u) = h / (1 + 2^(h * (a + b h^2))): the same function with one exp2, no
  // cancellation of 1 + tanh(u) for large negative u, and the constants (log2(e) included) folded so
  // that the argument costs three multiply-adds.
  static constexpr double kSqrt2OverPi = 0.7978845608028654;
  static constexpr double kCubicCoeff = 0.044715;
  static constexpr double kA = -2 * kSqrt2OverPi * kLog2e;
  static constexpr double kB = kA * kCubicCoeff;

  // sigmoid(2u(h))
  static OP_INLINE T sigmoid_2u(const T& h) {
    return reciprocal_(T(1) + exp2_(h * (T(kA) + T(kB) * (h * h))));
  }

  static OP_INLINE T forward(const T& h) { return h * sigmoid_2u(h); }

  static OP_INLINE T backward(const T& h) {
    // d/dh [h * s] = s * (1 + h * (1 - s) * 2u'(h)) with 2u'(h) = 2 sqrt(2/pi) (1 + 3 * 0.044715 h^2)
    const T s = sigmoid_2u(h);
    const T two_du = T(2 * kSqrt2OverPi) + T(6 * kSqrt2OverPi * kCubicCoeff) * (h * h);
    return s * (T(1) + h * (T(1) - s) * two_du);
  }

  static constexpr const char* kName = "generated_gelu::fused_bias_gelu";
};

}  // namespace generated_gelu::activations
