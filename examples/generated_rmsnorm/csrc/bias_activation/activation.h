// What an operator of the bias + activation family writes: its activation, in its own header
// (csrc/<operator>.h), as a struct template in namespace generated_rmsnorm::activations:
//
//   template <typename T>
//   struct MyOperator {
//     static OP_INLINE T forward(const T& h);   // act(h)
//     static OP_INLINE T backward(const T& h);  // act'(h), the derivative
//     static constexpr const char* kName = "<namespace>::<operator>";
//   };
//
// The family instantiates it with T = float or double in the CUDA kernels and T = a CPU vector of
// them in the CPU loops (Op<float>::kName names the operator): write the formulas with arithmetic
// operators, T(constant) and the helpers of core/math.h (exp_, exp2_, reciprocal_, sigmoid_, erf_,
// relu_, step_), and they compile into both.
#pragma once

#include "core/math.h"

namespace generated_rmsnorm::activations {

using namespace generated_rmsnorm::core;  // the math helpers, for the operators' formulas

}  // namespace generated_rmsnorm::activations
