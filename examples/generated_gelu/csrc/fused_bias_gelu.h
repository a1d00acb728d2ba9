// fused_bias_gelu: y = gelu_tanh(x + bias)
// for x of shape [..., N] and bias of shape [N].
//
// The activation and its derivative are written once, here, and compiled into both the CPU kernel
// and the CUDA kernel:
//   csrc/fused_bias_gelu_cpu.cpp
//   csrc/fused_bias_gelu_cuda.cu
// To change the math of the operator, edit activation() and activation_grad() below, then the
// plain-PyTorch reference that the tests compare against:
//   src/generated_gelu/ops/fused_bias_gelu.py
#pragma once

#include <ATen/core/Tensor.h>

#include <cmath>
#include <tuple>

#if defined(__CUDACC__)
#define FUSED_BIAS_GELU_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define FUSED_BIAS_GELU_HOST_DEVICE inline
#endif

namespace generated_gelu::fused_bias_gelu {

// ---------------------------------------------------------------------------------------------
// Math. T is the compute type: float for float32, float16 and bfloat16 tensors, double for float64.
// ---------------------------------------------------------------------------------------------

// exp, 2^v and 1/v. On the GPU the float versions are single special-function instructions
// (relative error about 2^-22), flushing denormals to zero: that costs nothing here (exp of a
// denormal is 1, and a denormal result only arises where the activation is negligible anyway) and
// saves the extra instructions of the denormal-safe forms, which a memory-bound kernel cannot
// afford on an H200. float64 always uses the exact functions.
FUSED_BIAS_GELU_HOST_DEVICE float exp2_(float v) {
#if defined(__CUDA_ARCH__)
  float result;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(result) : "f"(v));
  return result;
#else
  return std::exp2(v);
#endif
}
FUSED_BIAS_GELU_HOST_DEVICE double exp2_(double v) {
#if defined(__CUDA_ARCH__)
  return ::exp2(v);
#else
  return std::exp2(v);
#endif
}

constexpr double kLog2e = 1.4426950408889634;

template <typename T>
FUSED_BIAS_GELU_HOST_DEVICE T exp_(T v) {
  return exp2_(v * T(kLog2e));
}

FUSED_BIAS_GELU_HOST_DEVICE float reciprocal_(float v) {
#if defined(__CUDA_ARCH__)
  float result;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(result) : "f"(v));  // 1/inf = 0, the limit wanted
  return result;
#else
  return 1.0f / v;
#endif
}
FUSED_BIAS_GELU_HOST_DEVICE double reciprocal_(double v) {
  return 1.0 / v;
}

// 1 / (1 + exp(-v)), finite for every finite v.
template <typename T>
FUSED_BIAS_GELU_HOST_DEVICE T sigmoid_(T v) {
  return reciprocal_(T(1) + exp_(-v));
}

// GELU, tanh approximation: 0.5 * h * (1 + tanh(u)) with u = sqrt(2/pi) * (h + 0.044715 h^3).
// Written as h * sigmoid(2u) = h / (1 + 2^(h * (a + b h^2))): the same function with one exp2,
// no cancellation of 1 + tanh(u) for large negative u, and the constants (log2(e) included) folded
// so that the argument costs three multiply-adds.
constexpr double kSqrt2OverPi = 0.7978845608028654;
constexpr double kCubicCoeff = 0.044715;
constexpr double kA = -2 * kSqrt2OverPi * kLog2e;
constexpr double kB = kA * kCubicCoeff;

template <typename T>
FUSED_BIAS_GELU_HOST_DEVICE T sigmoid_2u(T h) {
  return reciprocal_(T(1) + exp2_(h * (T(kA) + T(kB) * (h * h))));
}

template <typename T>
FUSED_BIAS_GELU_HOST_DEVICE T activation(T h) {
  return h * sigmoid_2u(h);
}

// d/dh [h * s] = s + h * s * (1 - s) * 2u'(h) = s * (1 + h * (1 - s) * 2u'(h)),
// with 2u'(h) = 2 sqrt(2/pi) (1 + 3 * 0.044715 h^2).
template <typename T>
FUSED_BIAS_GELU_HOST_DEVICE T activation_grad(T h) {
  const T s = sigmoid_2u(h);
  const T two_du = T(2 * kSqrt2OverPi) + T(6 * kSqrt2OverPi * kCubicCoeff) * (h * h);
  return s * (T(1) + h * (T(1) - s) * two_du);
}

// ---------------------------------------------------------------------------------------------
// Operator entry points (registered with the dispatcher in the .cpp and .cu files).
// ---------------------------------------------------------------------------------------------

// Validates the arguments of the forward and backward operators. The messages name the argument.
// grad_out is checked only when defined (the backward operator).
void check_inputs(const at::Tensor& x, const at::Tensor& bias, const at::Tensor& grad_out = {});

// x.size(-1), the length of bias: the operator views x as a [rows, cols] matrix.
inline int64_t num_cols(const at::Tensor& x) {
  return x.size(-1);
}

at::Tensor forward_cpu(const at::Tensor& x, const at::Tensor& bias);
std::tuple<at::Tensor, at::Tensor> backward_cpu(const at::Tensor& grad_out, const at::Tensor& x,
                                                const at::Tensor& bias);

}  // namespace generated_gelu::fused_bias_gelu
