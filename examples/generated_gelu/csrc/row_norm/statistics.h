// What the row normalization family's CPU loops (cpu.h) and CUDA kernels (cuda.cuh) share about a
// row's statistics: the value LayerNorm sums a row about, and when a row is summed again about its
// mean instead.
#pragma once

#include <ATen/OpMathType.h>
#include <c10/macros/Macros.h>

#include <cstdint>

namespace generated_gelu::row_norm {

// The value about which LayerNorm's CUDA kernels sum a row (d = x - origin; the sums of d and d^2 give
// the mean and the variance), forward and backward: the row's first element (the CPU loops sum about
// the mean of the first vector's elements, each taken so: Row::shift_of in cpu.h), with the residual
// add x + residual rounded to x's dtype, as the row is normalized. Then (x, residual) and (their
// rounded sum, zeros) give the same bits, and the backward, which gets the rounded sum, sums about the
// same value. (Check N3 of the example's benchmarks/results/runs/n/n3/: the residual-add LayerNorm's
// CUDA forward, which then combined means of x itself, put float32 rows of mean 1000 and spread 1 up
// to 5.6e-4 off, 3 times the float32 tolerance; its cause was not established.) What is left: mean =
// origin + the mean of d is rounded once, half an ulp at the mean's own magnitude (lab P of the
// example's benchmarks/results/runs/p/: y within 0.30 to 0.59 of the tests' float32 tolerance on such
// rows on CUDA, 0.30 to 0.60 on the CPU).
template <bool kResidual, typename scalar_t>
C10_HOST_DEVICE inline at::opmath_type<scalar_t> row_origin(const scalar_t* __restrict__ x,
                                                            const scalar_t* __restrict__ residual,
                                                            int64_t offset) {
  using opmath_t = at::opmath_type<scalar_t>;
  if constexpr (kResidual) {
    return static_cast<opmath_t>(
        static_cast<scalar_t>(static_cast<opmath_t>(x[offset]) + static_cast<opmath_t>(residual[offset])));
  } else {
    return static_cast<opmath_t>(x[offset]);
  }
}

// Where a row's first element lies far from the row's mean against its spread, sum(d^2) / N and the
// squared mean of d cancel, and the variance loses their digits: with an LLM's "massive activations"
// (a few channels a thousand times the others) in the first column, float32 grad_x came out 1.3e-3 of
// its RMS off (1000 in rows of N(0.5, 4) at N = 4096, emulated on the CPU: the example's
// benchmarks/results/runs/g/far_shift.txt; summed again about the mean, 1.1e-6). Such a row, where
// (x[0] - mean)^2 > kFarShift variance, is summed again about the mean so found (the CPU loops, whose
// shift lies nearer the mean, take a bound of their own, kCpuFarShift in cpu.h; by the CPU loops and
// the staged CUDA forward also a row whose squares overflow; the CUDA forward of rows read in several
// passes mends its mean instead, and the CUDA backward takes the median of the first three elements
// for x[0]): in rows of normally distributed values about 1 row in 16,000 (a chi-squared tail); rows
// whose first column holds an LLM's "massive activation", all.
constexpr int kFarShift = 16;

// Whether a row summed about a shift lies far from it by kFarShift: d_mean is the mean of x - shift;
// true also where either is NaN. The CUDA kernels add their own overflow test. (The CPU loops take
// a bound of their own: kCpuFarShift in cpu.h.)
template <typename T>
C10_HOST_DEVICE inline bool lies_far(T d_mean, T variance) {
  return !(d_mean * d_mean <= T(kFarShift) * variance);
}

}  // namespace generated_gelu::row_norm
