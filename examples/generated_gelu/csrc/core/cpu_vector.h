// CPU vectors (ATen's at::vec::Vectorized) for the math helpers of core/math.h, so that operators'
// formulas compile into vectorized CPU loops. ATen's vectors are those of the instruction set the
// extension is compiled for: AVX2 where the build machine has it (build_config.py).
#pragma once

#include <ATen/cpu/vec/functional.h>
#include <ATen/cpu/vec/vec.h>

#include "core/math.h"

namespace generated_gelu::core {

template <typename T>
struct Math<at::vec::Vectorized<T>> {
  using V = at::vec::Vectorized<T>;
  static V exp2(const V& v) { return v.exp2(); }
  static V reciprocal(const V& v) { return v.reciprocal(); }
  static V erf(const V& v) { return v.erf(); }
  static V relu(const V& v) {
    const V zero(T(0));
    return V::blendv(v, zero, v < zero);  // NaN compares false: kept
  }
  static V step(const V& v) { return (v > V(T(0))) & V(T(1)); }
};

}  // namespace generated_gelu::core
