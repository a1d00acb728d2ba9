// CPU vectors (ATen's at::vec::Vectorized) for the math helpers of core/math.h, so that operators'
// formulas compile into vectorized CPU loops. ATen's vectors are those of the instruction set the
// extension is compiled for: AVX512 or AVX2 where the build machine has it (build_config.py).
#pragma once

#include <ATen/OpMathType.h>
#include <ATen/cpu/vec/functional.h>
#include <ATen/cpu/vec/vec.h>

#include <cstdint>
#include <tuple>
#include <type_traits>

#include "core/math.h"

namespace generated_rmsnorm::core {

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

// How a row's elements are read and written: in steps of kStep elements, as kParts vectors of
// opmath_t (float for float16 and bfloat16, which load two float vectors' worth at once).
template <typename scalar_t>
struct Lanes {
  using opmath_t = at::opmath_type<scalar_t>;
  using V = at::vec::Vectorized<opmath_t>;
  static constexpr bool kConverted = !std::is_same_v<scalar_t, opmath_t>;
  static constexpr int64_t kStep = kConverted ? 2 * V::size() : V::size();

  // Loads `count` elements (at most kStep) as two vectors; the second is unused without conversion.
  static void load(const scalar_t* data, int64_t count, V& a, V& b) {
    if constexpr (kConverted) {
      std::tie(a, b) = at::vec::convert_to_float<scalar_t>(at::vec::Vectorized<scalar_t>::loadu(data, count));
    } else {
      a = V::loadu(data, count);
    }
  }

  static void store(scalar_t* data, int64_t count, const V& a, const V& b) {
    if constexpr (kConverted) {
      at::vec::convert_from_float<scalar_t>(a, b).store(data, count);
    } else {
      a.store(data, count);
    }
  }
};

}  // namespace generated_rmsnorm::core
