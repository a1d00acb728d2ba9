// The math helpers that operators write their formulas with, on the CPU and on CUDA.
//
// An operator's formula is a function template written with arithmetic operators, T(constant) and
// the helpers below (exp_, exp2_, reciprocal_, sigmoid_, erf_, relu_, step_). It then compiles,
// unchanged, into the CUDA kernels (T = float or double) and into the vectorized CPU loops (T = a CPU
// vector of floats or doubles; core/cpu_vector.h adds those). The helpers reach the type's
// implementation through Math<T>, so that a type's support can be declared after the formulas.
#pragma once

#include <cmath>

#include "core/common.h"

namespace generated_rmsnorm::core {

constexpr double kLog2e = 1.4426950408889634;

// How a type computes the helpers (specialized per type).
template <typename T>
struct Math;

// float. On the GPU the exponential and the reciprocal are single special-function instructions
// (relative error about 2^-22) that flush denormals to zero: that costs nothing here (exp of a
// denormal is 1, and a denormal result only arises where the function is negligible anyway) and
// saves the extra instructions of the denormal-safe forms, which a memory-bound kernel cannot afford
// on an H200.
template <>
struct Math<float> {
  static OP_INLINE float exp2(float v) {
#if defined(__CUDA_ARCH__)
    float result;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(result) : "f"(v));
    return result;
#else
    return std::exp2(v);
#endif
  }
  static OP_INLINE float reciprocal(float v) {  // 1 / inf = 0, the limit the functions here want
#if defined(__CUDA_ARCH__)
    float result;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(result) : "f"(v));
    return result;
#else
    return 1.0f / v;
#endif
  }
  static OP_INLINE float erf(float v) {
#if defined(__CUDA_ARCH__)
    return erff(v);
#else
    return std::erf(v);
#endif
  }
  static OP_INLINE float relu(float v) { return v < 0.0f ? 0.0f : v; }  // NaN stays NaN, as in torch.relu
  static OP_INLINE float step(float v) { return v > 0.0f ? 1.0f : 0.0f; }
};

// double: always the exact functions.
template <>
struct Math<double> {
  static OP_INLINE double exp2(double v) {
#if defined(__CUDA_ARCH__)
    return ::exp2(v);
#else
    return std::exp2(v);
#endif
  }
  static OP_INLINE double reciprocal(double v) { return 1.0 / v; }
  static OP_INLINE double erf(double v) { return ::erf(v); }
  static OP_INLINE double relu(double v) { return v < 0.0 ? 0.0 : v; }
  static OP_INLINE double step(double v) { return v > 0.0 ? 1.0 : 0.0; }
};

// 2^v
template <typename T>
OP_INLINE T exp2_(const T& v) {
  return Math<T>::exp2(v);
}

// 1 / v
template <typename T>
OP_INLINE T reciprocal_(const T& v) {
  return Math<T>::reciprocal(v);
}

template <typename T>
OP_INLINE T erf_(const T& v) {
  return Math<T>::erf(v);
}

// max(v, 0), NaN kept
template <typename T>
OP_INLINE T relu_(const T& v) {
  return Math<T>::relu(v);
}

// 1 where v > 0, else 0 (the derivative of relu, with torch's convention at 0)
template <typename T>
OP_INLINE T step_(const T& v) {
  return Math<T>::step(v);
}

// e^v
template <typename T>
OP_INLINE T exp_(const T& v) {
  return exp2_(v * T(kLog2e));
}

// 1 / (1 + e^-v), finite for every finite v. e^-v as 2^(v * -log2(e)): one multiply, where
// exp_(0 - v) would add a subtraction per element that the compiler may not fold (0 - v is not -v
// at v = 0), which costs a float32 backward on the GPU about 5% of its time.
template <typename T>
OP_INLINE T sigmoid_(const T& v) {
  return reciprocal_(T(1) + exp2_(v * T(-kLog2e)));
}

}  // namespace generated_rmsnorm::core
