// What every operator family of the project shares, on the CPU and on CUDA: the dtype rules and a
// few names. The math helpers that operators write their formulas with are in core/math.h.
#pragma once

#include <ATen/core/Tensor.h>

#include <cmath>
#include <string>
#include <type_traits>

#if defined(__CUDACC__)
#define OP_INLINE __host__ __device__ __forceinline__
#else
#define OP_INLINE inline
#endif

namespace generated_rmsnorm::core {

// ---------------------------------------------------------------------------------------------
// dtypes
// ---------------------------------------------------------------------------------------------
inline bool is_supported_dtype(at::ScalarType dtype) {
  return dtype == at::kFloat || dtype == at::kDouble || dtype == at::kHalf || dtype == at::kBFloat16;
}

// A parameter (a bias, a weight) may have the dtype of x or, for a float16 or bfloat16 x, float32:
// what autocast passes (a low-precision activation and a float32 parameter).
inline bool is_parameter_dtype_allowed(at::ScalarType x, at::ScalarType parameter) {
  const bool half = x == at::kHalf || x == at::kBFloat16;
  return parameter == x || (half && parameter == at::kFloat);
}

// Calls f(param_t{}) with the C++ type of a parameter: x's own, or float for a half-precision x.
template <typename scalar_t, typename F>
void dispatch_parameter_type(at::ScalarType parameter, F&& f) {
  if constexpr (std::is_same_v<scalar_t, c10::Half> || std::is_same_v<scalar_t, c10::BFloat16>) {
    if (parameter == at::kFloat) {
      f(float{});
      return;
    }
  }
  f(scalar_t{});
}

// "ns::op" -> "op"
inline std::string unqualified(const char* qualified_name) {
  const std::string name(qualified_name);
  return name.substr(name.rfind("::") + 2);
}

}  // namespace generated_rmsnorm::core
