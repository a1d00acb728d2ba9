// The row normalization family's CPU loops: each row of x is normalized over its N elements
// (RMSNorm: x * rstd; LayerNorm: (x - mean) * rstd), times the weight (plus the bias). Vectorized with
// ATen's CPU vectors, parallel over rows with at::parallel_for, statistics in float for float16 and
// bfloat16 (in double for double). With a residual add, the forward first writes x + residual,
// rounded to x's dtype, and normalizes that. The backward recomputes each row's statistics from the
// tensor the forward normalized, as the forward computed them (the same code, so the same bits),
// instead of saving them, and adds grad_residual_out (where given) to grad_x.
#pragma once

#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/Parallel.h>
#include <ATen/ops/empty.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "core/common.h"
#include "core/cpu_vector.h"
#include "row_norm/statistics.h"

// Inlines a lambda: the loops' steps below must compile into their callers' loops.
#define ROW_NORM_INLINE __attribute__((always_inline))

namespace generated_rmsnorm::row_norm::cpu {

// Elements per parallel task: enough that a task outweighs its scheduling cost.
constexpr int64_t kGrainElements = 32768;
// grad_weight (and grad_bias) are summed over fixed chunks of rows, then over the chunks in order:
// the result depends on the shape only, never on the number of threads. At most kChunks chunks, each
// of at least kRowsPerChunk rows, except that up to kMinChunks chunks are made of fewer rows, so that
// a few wide rows still keep several threads busy.
constexpr int64_t kChunks = 64;
constexpr int64_t kRowsPerChunk = 16;
constexpr int64_t kMinChunks = 8;

// LayerNorm sums a row about the mean of its first vector's elements (Row::shift_of), and sums it
// again about its mean where (shift - mean)^2 > kCpuFarShift * variance: farther than two standard
// deviations, where the variance has lost 5 times the rounding error of a sum about the mean (the
// CUDA kernels sum about the first element, the backward about the median of the first three, and
// again beyond four standard deviations, 17 times: kFarShift of statistics.h). The shift is the mean
// of k = V::size() elements: 16 (float32, AVX512), 8 (float32 with AVX2, float64 with AVX512), 4
// (float64 with AVX2 or without a vector set, float32 on aarch64), 2 (float64 on aarch64); in a row
// of independent values it lies 2 standard deviations off as often as a normal value lies 2 sqrt(k)
// off: at k = 4 about 1 row in 16,000, at k = 2 about 1 in 200, never in practice at k = 8 or 16.
// A row whose elements trend across its width is read again where its first vector's mean lies that
// far off: with a bound of one standard deviation (2 times the error), every row of randn +
// linspace(-3, 3) was (a review in session 54 of the template repository); with two, none is
// (labs/shift_cost.txt of the example's benchmarks/results/cpu/ times such rows).
constexpr int kCpuFarShift = 4;

// Scratch memory (the backward's rows of partial sums, a thread's rows converted to float) is kept
// between calls, a block for each use on each thread, up to kCachedScratchBytes. Allocated afresh on
// every call, a block of a few hundred KiB or more came as new pages from the operating system about as
// often as not (the C library hands large blocks back when they are freed), and the faults of their
// first writes cost more than the loops: the float32 LayerNorm backward at 16 x 65536 (4 MiB of partial
// sums) took up to seven times as long a call as otherwise, depending on what else the process had
// allocated (the example's benchmarks/results/cpu/README.md). Larger blocks, whose faults weigh less
// against the work, are allocated for the call.
constexpr int64_t kCachedScratchBytes = 16 << 20;

enum class Scratch { kPartialSums, kRow, kGradRow };

// `elements` of T for kUse: this thread's cached block where they fit kCachedScratchBytes, else
// `fallback`, allocated here (the caller keeps it while it uses the memory).
template <Scratch kUse, typename T>
T* scratch(int64_t elements, at::Tensor& fallback) {
  if (elements * static_cast<int64_t>(sizeof(T)) > kCachedScratchBytes) {
    fallback = at::empty({elements}, at::TensorOptions().dtype(c10::CppTypeToScalarType<T>::value));
    return fallback.mutable_data_ptr<T>();
  }
  static thread_local std::vector<T> cached;
  if (static_cast<int64_t>(cached.size()) < elements) cached.resize(elements);
  return cached.data();
}

// The sum of a vector's lanes, in lane order (the same bits on every call).
template <typename V>
typename V::value_type lane_sum(const V& v) {
  typename V::value_type lanes[V::size()];
  v.store(lanes);
  typename V::value_type total = 0;
  for (int i = 0; i < V::size(); ++i) total += lanes[i];
  return total;
}

// A row's sum of step(c, count, acc) over its stretches of kWidth elements (the last one `count` <
// kWidth long), each step given one of four accumulators in turn and returning it updated. With a
// single accumulator every add waits for the one before, and that chain, not memory, would set the
// pace of a row held in the cache. The accumulators are added in a fixed order: the same bits on
// every call.
template <int64_t kWidth, typename A, typename Step>
A accumulate(int64_t cols, const A& zero, Step step) {
  constexpr std::integral_constant<int64_t, kWidth> kFull;  // a count the compiler knows
  A acc0 = zero, acc1 = zero, acc2 = zero, acc3 = zero;
  int64_t c = 0;
  for (; c + 4 * kWidth <= cols; c += 4 * kWidth) {
    acc0 = step(c, kFull, acc0);
    acc1 = step(c + kWidth, kFull, acc1);
    acc2 = step(c + 2 * kWidth, kFull, acc2);
    acc3 = step(c + 3 * kWidth, kFull, acc3);
  }
  for (; c < cols; c += kWidth) acc0 = step(c, std::min(kWidth, cols - c), acc0);
  return (acc0 + acc1) + (acc2 + acc3);
}

// step(c, count) over a row's stretches of kWidth elements, the last one `count` < kWidth long.
template <int64_t kWidth, typename Step>
void for_each_step(int64_t cols, Step step) {
  constexpr std::integral_constant<int64_t, kWidth> kFull;  // a count the compiler knows
  int64_t c = 0;
  for (; c + kWidth <= cols; c += kWidth) step(c, kFull);
  if (c < cols) step(c, cols - c);
}

// part(i, at, n) for the vectors of a step of `count` elements from column c: vector i (of one, or
// two in the 16-bit types, whose step converts to two vectors of floats) has n lanes from column at.
template <typename V, typename Count, typename Part>
ROW_NORM_INLINE inline void for_each_part(int64_t c, Count count, Part part) {
  for (int i = 0; i < 2 && i * V::size() < count; ++i) {
    part(i, c + i * V::size(), std::min<int64_t>(V::size(), count - i * V::size()));
  }
}

// A parameter (weight, bias; of x's dtype or float32) as a contiguous opmath_t tensor, plus `offset`
// (Gemma's 1 + weight): converted once per call, and not copied where it already is one.
template <typename opmath_t>
at::Tensor parameter_as_opmath(const at::Tensor& p, double offset) {
  const at::Tensor converted = p.to(c10::CppTypeToScalarType<opmath_t>::value).contiguous();
  return offset != 0 ? converted.add(offset) : converted;
}

// One row h of the tensor to normalize and its statistics: mean (0 for RMSNorm) and rstd =
// 1 / sqrt(variance + eps), where the variance is the mean of (h - mean)^2 (RMSNorm: of h^2). h is x,
// or with `residual`, x + residual, written to `sum` in x's dtype and taken as rounded there.
// `values` is h as opmath_t: x (or `sum`) itself where x's dtype is opmath_t, else `buffer`, which
// the row is converted into once. The centered form's second pass, and the caller's, read it from
// the L1 or L2 cache.
template <template <typename> class Norm, typename scalar_t>
struct Row {
  using L = core::Lanes<scalar_t>;
  using V = typename L::V;
  using opmath_t = typename L::opmath_t;
  static constexpr bool kCentered = Norm<opmath_t>::kCentered;

  const opmath_t* values = nullptr;
  opmath_t mean = 0;
  opmath_t rstd = 0;

  // A row's sums of d = h - shift and of d^2 (RMSNorm: of h^2 alone, with shift 0).
  struct Sums {
    V sum, squares;
    Sums operator+(const Sums& other) const { return {sum + other.sum, squares + other.squares}; }
    // Adds the first `count` lanes of h (the others are zeros: h's past `count`, d's made so).
    template <bool kAboutShift, typename Count>
    ROW_NORM_INLINE void add(const V& h, const V& shift, Count count) {
      if constexpr (kAboutShift) {
        V d = h - shift;
        if (count < V::size()) d = V::set(V(0), d, std::max<int64_t>(count, 0));
        sum = sum + d;
        squares = at::vec::fmadd(d, d, squares);
      } else {
        squares = at::vec::fmadd(h, h, squares);
      }
    }
  };

  // The shift of the row's sums (LayerNorm; 0 for RMSNorm): the mean of h's first vector of opmath_t
  // (V::size() elements, see kCpuFarShift; all of a shorter row), each as rounded to scalar_t, as
  // the backward, which gets the rounded sum of x and residual, sees them: the same statistics, to the
  // bit, in the forward and the backward. The variance, sum(d^2) / N - mean(d)^2, has
  // 1 + (shift - mean)^2 / variance times the rounding error of a sum about the mean: about the row's
  // first element, twice on average in a random row and 17 times where that element lies 4 standard
  // deviations off (float32 y up to 17 times torch.nn.LayerNorm's mean error then:
  // labs/shift_accuracy.txt of the example's benchmarks/results/cpu/); about the mean of k elements,
  // 1 + 1 / k times on average (1.06 at k = 16), and at most 5 times, since a row whose shift lies
  // farther is summed again (kCpuFarShift). Each element is scaled by 1 / k before the sum, which
  // then cannot overflow where the elements do not.
  static opmath_t shift_of(const scalar_t* x, const scalar_t* residual, int64_t cols) {
    if constexpr (kCentered) {
      const int64_t count = std::min<int64_t>(cols, V::size());
      V a, b;
      L::load(x, count, a, b);  // lanes past `count` are zeros
      if (residual != nullptr) {
        V ra, rb;
        L::load(residual, count, ra, rb);
        a = a + ra;
        if constexpr (L::kConverted) {  // as rounded to scalar_t, as Row's first pass takes the row
          scalar_t rounded[L::kStep];
          L::store(rounded, count, a, b);
          L::load(rounded, count, a, b);
        }
      }
      a = a * V(opmath_t(1) / static_cast<opmath_t>(count));  // lanes past `count` stay zeros
      if constexpr (std::is_same_v<opmath_t, float>) {
        // A tree of the lanes (ATen's shuffles), shorter than lane_sum's chain; ATen has no such tree
        // for double (its fallback stores and reloads the vector for each lane), which takes lane_sum.
        // The same bits on every call either way.
        return at::vec::vec_reduce_all<opmath_t>([](const V& u, const V& v) { return u + v; }, a);
      } else {
        return lane_sum(a);
      }
    } else {
      return 0;
    }
  }

  // Adds a step of h, loaded as a and b (b unused without conversion; lanes past `count` zeros), to acc.
  template <typename Count>
  ROW_NORM_INLINE static void add_step(Sums& acc, const V& a, const V& b, const V& shift, Count count) {
    acc.template add<kCentered>(a, shift, count);
    if constexpr (L::kConverted) acc.template add<kCentered>(b, shift, count - V::size());
  }

  Row() = default;  // for a caller that takes the sums itself (add_step, then settle)

  Row(const scalar_t* x, int64_t cols, opmath_t* buffer, double eps, const scalar_t* residual = nullptr,
      scalar_t* sum = nullptr) {
    if constexpr (L::kConverted) {
      values = buffer;
    } else {
      values = residual != nullptr ? sum : x;
    }
    // LayerNorm: one read of the row gives the sums of d = h - shift and of d^2, with shift near the
    // row's mean (shift_of), so that the variance sum(d^2) / N - (sum(d) / N)^2 keeps the digits a mean
    // far from zero would take. (Against two passes, the mean's and then the squared deviations', the
    // float32 forward took 0.89 to 0.95 of the time in three of four cells of lab cells, 1.47 in the
    // fourth, a cell that moves from run to run: the example's benchmarks/results/cpu/labs/cells.txt.)
    // Where the shift lies far from the mean against the spread, settle sums the row again.
    const opmath_t shift = shift_of(x, residual, cols);
    const V s(shift);
    const Sums total =
        accumulate<L::kStep>(cols, Sums{V(0), V(0)}, [=](int64_t c, auto count, Sums acc) ROW_NORM_INLINE {
          V a, b;
          L::load(x + c, count, a, b);  // lanes past `count` are zeros
          if (residual != nullptr) {
            V ra, rb;
            L::load(residual + c, count, ra, rb);
            a = a + ra;
            if constexpr (L::kConverted) b = b + rb;
            L::store(sum + c, count, a, b);
            if constexpr (L::kConverted) L::load(sum + c, count, a, b);  // as rounded to scalar_t
          }
          if constexpr (L::kConverted) {
            a.store(buffer + c, std::min<int64_t>(V::size(), count));
            if (count > V::size()) b.store(buffer + c + V::size(), count - V::size());
          }
          add_step(acc, a, b, s, count);
          return acc;
        });
    settle(total, shift, cols, eps);
  }

  // mean and rstd from the row's sums about `shift` (accumulate's of add_step), with `values` set.
  // Where the shift lies far from the mean against the spread (or the squares overflow), those two
  // terms cancel, and the d's, all of them large, round their sum: the row is then summed again, about
  // the mean so found, and its squared deviations about the mean that gives (kCpuFarShift); returns
  // whether it was.
  bool settle(const Sums& total, opmath_t shift, int64_t cols, double eps) {
    const opmath_t n = static_cast<opmath_t>(cols);
    opmath_t variance = lane_sum(total.squares) / n;
    bool far = false;
    if constexpr (kCentered) {
      const opmath_t d_mean = lane_sum(total.sum) / n;
      variance = std::max(variance - d_mean * d_mean, opmath_t(0));
      mean = shift + d_mean;
      far = !(d_mean * d_mean <= opmath_t(kCpuFarShift) * variance) || !std::isfinite(variance);  // or NaN
      if (far) {
        // Both sums again: the d's, all far from zero, added up rounding errors of their own size into
        // the mean, so the mean is mended by the sum about the mean they gave, a sum of small terms
        // (test_rows_whose_first_element_lies_far_from_the_others checks the outcome).
        const opmath_t* const h = values;
        const V estimate(mean);
        const V off = accumulate<V::size()>(cols, V(0), [=](int64_t c, auto count, V acc) ROW_NORM_INLINE {
          V d = V::loadu(h + c, count) - estimate;
          if (count < V::size()) d = V::set(V(0), d, count);  // zeros past `count`
          return acc + d;
        });
        mean += lane_sum(off) / n;
        const V m(mean);
        const V squares =
            accumulate<V::size()>(cols, V(0), [=](int64_t c, auto count, V acc) ROW_NORM_INLINE {
              V d = V::loadu(h + c, count) - m;
              if (count < V::size()) d = V::set(V(0), d, count);  // zeros past `count`
              return at::vec::fmadd(d, d, acc);
            });
        variance = lane_sum(squares) / n;
      }
    }
    rstd = opmath_t(1) / std::sqrt(variance + static_cast<opmath_t>(eps));
    return far;
  }

  // x_hat = (h - mean) * rstd (RMSNorm: h * rstd), the mean subtracted first: h * rstd - mean * rstd
  // keeps only the rounding of two products that cancel where the mean is far from zero against the
  // spread (at N = 1, where x_hat is 0, a float32 output came out 2.5e-5 away from the bias, beyond
  // the tests' tolerance, in call X8).
  static V normalize(const V& h, const V& mean, const V& rstd) {
    if constexpr (kCentered) {
      return (h - mean) * rstd;
    } else {
      return h * rstd;
    }
  }
};

template <template <typename> class Norm, typename scalar_t>
void forward_loop(const at::Tensor& x_t, const at::Tensor& residual_t, const at::Tensor& weight_t,
                  const at::Tensor& bias_t, double eps, const at::Tensor& y_t,
                  const at::Tensor& residual_out_t) {
  using R = Row<Norm, scalar_t>;
  using L = typename R::L;
  using V = typename R::V;
  using opmath_t = typename R::opmath_t;
  const int64_t cols = x_t.size(-1);
  const int64_t rows = x_t.numel() / cols;
  const at::Tensor weight_opmath = parameter_as_opmath<opmath_t>(weight_t, Norm<opmath_t>::kWeightOffset);
  const at::Tensor bias_opmath = bias_t.defined() ? parameter_as_opmath<opmath_t>(bias_t, 0) : at::Tensor();
  const opmath_t* weight = weight_opmath.const_data_ptr<opmath_t>();
  const opmath_t* bias = bias_t.defined() ? bias_opmath.const_data_ptr<opmath_t>() : nullptr;
  const scalar_t* x = x_t.const_data_ptr<scalar_t>();
  const scalar_t* residual = residual_t.defined() ? residual_t.const_data_ptr<scalar_t>() : nullptr;
  scalar_t* residual_out = residual_t.defined() ? residual_out_t.mutable_data_ptr<scalar_t>() : nullptr;
  scalar_t* y = y_t.mutable_data_ptr<scalar_t>();
  const int64_t grain = std::max<int64_t>(1, kGrainElements / cols);
  at::parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
    at::Tensor allocated;
    opmath_t* const buffer = L::kConverted ? scratch<Scratch::kRow, opmath_t>(cols, allocated) : nullptr;
    for (int64_t r = begin; r < end; ++r) {
      const int64_t offset = r * cols;
      const R row = residual == nullptr
                        ? R(x + offset, cols, buffer, eps)
                        : R(x + offset, cols, buffer, eps, residual + offset, residual_out + offset);
      // y = x_hat * w (+ b)
      const V rstd(row.rstd), mean(row.mean);
      scalar_t* y_row = y + offset;
      for_each_step<L::kStep>(cols, [=](int64_t c, auto count) ROW_NORM_INLINE {
        V out[2] = {V(0), V(0)};
        for_each_part<V>(c, count, [&](int part, int64_t at, int64_t n) ROW_NORM_INLINE {
          const V x_hat = R::normalize(V::loadu(row.values + at, n), mean, rstd);
          out[part] = bias != nullptr
                          ? at::vec::fmadd(x_hat, V::loadu(weight + at, n), V::loadu(bias + at, n))
                          : x_hat * V::loadu(weight + at, n);
        });
        L::store(y_row + c, count, out[0], out[1]);
      });
    }
  });
}

// The two row sums of the backward: of d * w dy (d = h - shift, or after settle's second sums x_hat),
// and (LayerNorm) of w dy.
template <typename V>
struct BackwardSums {
  V dot, wdy;
  BackwardSums operator+(const BackwardSums& other) const { return {dot + other.dot, wdy + other.wdy}; }
};

// What the backward's one read of a row sums: the row's statistics' sums (Row::Sums, taken in the
// forward's order, so to the same bits) and the formula's (BackwardSums).
template <typename Sums, typename V>
struct RowAndBackwardSums {
  Sums stats;
  BackwardSums<V> grads;
  RowAndBackwardSums operator+(const RowAndBackwardSums& other) const {
    return {stats + other.stats, grads + other.grads};
  }
};

// grad_x = rstd * (w dy - mean(w dy) - x_hat * mean(x_hat * w dy)) for LayerNorm, without the
// mean(w dy) term for RMSNorm, with x_hat = (x - mean) * rstd, plus grad_residual_out where given;
// grad_weight = sum over the rows of dy * x_hat; grad_bias = sum over the rows of dy.
//
// Two passes over each row, as the CUDA kernels make: the first reads x and dy once for the row's
// statistics (the forward's sums, see Row) and the formula's sums, all about the row's shift:
// mean(x_hat * w dy) = rstd * (sum(d w dy) - mean(d) * sum(w dy)) / N; the second writes grad_x and
// adds dy * x_hat (and dy) into the chunk's row of partial sums. (Before, a pass for the statistics,
// one for the formula's sums and the partial sums, one for grad_x: LayerNorm's float32 forward+backward
// at 4096 x 4096 then gave eager's time over ours 0.983 to 0.996, and 1.023 to 1.036 with two
// passes: lab two_pass_backward in the example's benchmarks/results/cpu/labs/.) A row whose shift
// lies far from its mean (Row::settle) takes the formula's sums again about the mean.
template <template <typename> class Norm, typename scalar_t>
void backward_loop(const at::Tensor& grad_out_t, const at::Tensor& grad_residual_out_t, const at::Tensor& x_t,
                   const at::Tensor& weight_t, double eps, const at::Tensor& grad_x_t,
                   const at::Tensor& grad_weight_t, const at::Tensor& grad_bias_t) {
  using R = Row<Norm, scalar_t>;
  using L = typename R::L;
  using V = typename R::V;
  using opmath_t = typename R::opmath_t;
  using Both = RowAndBackwardSums<typename R::Sums, V>;
  constexpr bool kCentered = R::kCentered;
  const bool with_bias = grad_bias_t.defined();
  const int64_t cols = x_t.size(-1);
  const int64_t rows = x_t.numel() / cols;
  const at::Tensor weight_opmath = parameter_as_opmath<opmath_t>(weight_t, Norm<opmath_t>::kWeightOffset);
  const opmath_t* weight = weight_opmath.const_data_ptr<opmath_t>();
  const scalar_t* grad_out = grad_out_t.const_data_ptr<scalar_t>();
  const scalar_t* x = x_t.const_data_ptr<scalar_t>();
  const scalar_t* grad_residual_out =
      grad_residual_out_t.defined() ? grad_residual_out_t.const_data_ptr<scalar_t>() : nullptr;
  scalar_t* grad_x = grad_x_t.mutable_data_ptr<scalar_t>();

  // One row of partial sums per chunk of rows and per parameter (see scratch); a chunk's first row
  // writes its row of sums, the others add to it.
  const int64_t most_chunks =
      std::clamp<int64_t>(rows / kRowsPerChunk, std::min<int64_t>(rows, kMinChunks), kChunks);
  const int64_t rows_per_chunk = (rows + most_chunks - 1) / most_chunks;
  const int64_t chunks = (rows + rows_per_chunk - 1) / rows_per_chunk;  // none of them empty
  at::Tensor allocated;
  opmath_t* partial_weight =
      scratch<Scratch::kPartialSums, opmath_t>((with_bias ? 2 : 1) * chunks * cols, allocated);
  opmath_t* partial_bias = partial_weight + chunks * cols;

  at::parallel_for(0, chunks, 1, [&](int64_t begin, int64_t end) {
    // x and dy as opmath_t: the tensors themselves where their dtype is opmath_t, else converted into
    // buffer and dy_converted by the first pass.
    at::Tensor allocated_row, allocated_grad_row;
    opmath_t* const buffer = L::kConverted ? scratch<Scratch::kRow, opmath_t>(cols, allocated_row) : nullptr;
    opmath_t* const dy_converted =
        L::kConverted ? scratch<Scratch::kGradRow, opmath_t>(cols, allocated_grad_row) : nullptr;
    for (int64_t chunk = begin; chunk < end; ++chunk) {
      opmath_t* acc_w = partial_weight + chunk * cols;
      opmath_t* acc_b = partial_bias + chunk * cols;
      const int64_t row_end = std::min(rows, (chunk + 1) * rows_per_chunk);
      for (int64_t r = chunk * rows_per_chunk; r < row_end; ++r) {
        const int64_t offset = r * cols;
        const bool first = r == chunk * rows_per_chunk;
        const scalar_t* const x_row = x + offset;
        const scalar_t* const dy_row = grad_out + offset;
        R row;
        const opmath_t* dy = nullptr;
        if constexpr (L::kConverted) {
          row.values = buffer;
          dy = dy_converted;
        } else {
          row.values = x_row;
          dy = dy_row;
        }
        const opmath_t shift = R::shift_of(x_row, nullptr, cols);
        const V s(shift);
        const Both zero{typename R::Sums{V(0), V(0)}, BackwardSums<V>{V(0), V(0)}};
        const Both sums =
            accumulate<L::kStep>(cols, zero, [=](int64_t c, auto count, Both acc) ROW_NORM_INLINE {
              V h[2], g[2];
              L::load(x_row + c, count, h[0], h[1]);  // lanes past `count` are zeros
              L::load(dy_row + c, count, g[0], g[1]);
              if constexpr (L::kConverted) {
                h[0].store(buffer + c, std::min<int64_t>(V::size(), count));
                g[0].store(dy_converted + c, std::min<int64_t>(V::size(), count));
                if (count > V::size()) {
                  h[1].store(buffer + c + V::size(), count - V::size());
                  g[1].store(dy_converted + c + V::size(), count - V::size());
                }
              }
              R::add_step(acc.stats, h[0], h[1], s, count);
              for_each_part<V>(c, count, [&](int part, int64_t at, int64_t n) ROW_NORM_INLINE {
                const V wdy = g[part] * V::loadu(weight + at, n);  // zeros past n, where dy's are
                acc.grads.dot = at::vec::fmadd(kCentered ? h[part] - s : h[part], wdy, acc.grads.dot);
                if constexpr (kCentered) acc.grads.wdy = acc.grads.wdy + wdy;
              });
              return acc;
            });
        const bool far = row.settle(sums.stats, shift, cols, eps);
        const V rstd(row.rstd), mean(row.mean);
        const opmath_t n_cols = static_cast<opmath_t>(cols);
        // mean(x_hat * w dy), mean(w dy)
        const opmath_t d_mean = kCentered ? lane_sum(sums.stats.sum) / n_cols : opmath_t(0);
        const opmath_t wdy_sum = kCentered ? lane_sum(sums.grads.wdy) : opmath_t(0);
        opmath_t c1 = row.rstd * (lane_sum(sums.grads.dot) - d_mean * wdy_sum) / n_cols;
        opmath_t c2 = wdy_sum / n_cols;
        if (far || !std::isfinite(c1)) {
          // About the mean that settle found: the shift's sums lost the digits its own did (or the sums of
          // d w dy, unscaled, overflowed where x_hat * w dy would not).
          const opmath_t* const h = row.values;
          const BackwardSums<V> again = accumulate<V::size()>(
              cols, zero.grads, [=](int64_t c, auto count, BackwardSums<V> acc) ROW_NORM_INLINE {
                const V wdy = V::loadu(dy + c, count) * V::loadu(weight + c, count);  // zeros past count
                acc.dot = at::vec::fmadd(R::normalize(V::loadu(h + c, count), mean, rstd), wdy, acc.dot);
                acc.wdy = acc.wdy + wdy;
                return acc;
              });
          c1 = lane_sum(again.dot) / n_cols;
          c2 = kCentered ? lane_sum(again.wdy) / n_cols : opmath_t(0);
        }
        // grad_x = (w dy - c2 - x_hat * c1) * rstd = rstd * w dy + per_x_hat * x_hat + constant
        const V per_x_hat(-row.rstd * c1), constant(-row.rstd * c2);
        scalar_t* grad_x_row = grad_x + offset;
        for_each_step<L::kStep>(cols, [=](int64_t c, auto count) ROW_NORM_INLINE {
          V out[2] = {V(0), V(0)};
          for_each_part<V>(c, count, [&](int part, int64_t at, int64_t n) ROW_NORM_INLINE {
            const V g = V::loadu(dy + at, n);
            const V x_hat = R::normalize(V::loadu(row.values + at, n), mean, rstd);
            out[part] = at::vec::fmadd(rstd, g * V::loadu(weight + at, n),
                                       at::vec::fmadd(per_x_hat, x_hat, constant));
            if (first) {
              (g * x_hat).store(acc_w + at, n);
              if (with_bias) g.store(acc_b + at, n);
            } else {
              at::vec::fmadd(g, x_hat, V::loadu(acc_w + at, n)).store(acc_w + at, n);
              if (with_bias) (V::loadu(acc_b + at, n) + g).store(acc_b + at, n);
            }
          });
          if (grad_residual_out != nullptr) {
            V gr[2];
            L::load(grad_residual_out + offset + c, count, gr[0], gr[1]);
            out[0] = out[0] + gr[0];
            if constexpr (L::kConverted) out[1] = out[1] + gr[1];
          }
          L::store(grad_x_row + c, count, out[0], out[1]);
        });
      }
    }
  });

  // The chunks' sums, added in the chunks' order, rounded to each parameter's dtype.
  const auto finish = [&](const opmath_t* partial, const at::Tensor& grad) {
    at::Tensor sums_t = at::empty({cols}, grad.options().dtype(c10::CppTypeToScalarType<opmath_t>::value));
    opmath_t* sums = sums_t.mutable_data_ptr<opmath_t>();
    at::parallel_for(0, cols, kGrainElements, [&](int64_t begin, int64_t end) {
      for (int64_t c = begin; c < end; c += V::size()) {
        const int64_t count = std::min<int64_t>(V::size(), end - c);
        V total = V::loadu(partial + c, count);
        for (int64_t chunk = 1; chunk < chunks; ++chunk)
          total = total + V::loadu(partial + chunk * cols + c, count);
        total.store(sums + c, count);
      }
    });
    grad.copy_(sums_t);
  };
  finish(partial_weight, grad_weight_t);
  if (with_bias) finish(partial_bias, grad_bias_t);
}

template <template <typename> class Norm>
void forward(const at::Tensor& x, const at::Tensor& residual, const at::Tensor& weight,
             const at::Tensor& bias, double eps, const at::Tensor& y, const at::Tensor& residual_out) {
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), Norm<float>::kName, [&] {
    forward_loop<Norm, scalar_t>(x, residual, weight, bias, eps, y, residual_out);
  });
}

template <template <typename> class Norm>
void backward(const at::Tensor& grad_out, const at::Tensor& grad_residual_out, const at::Tensor& x,
              const at::Tensor& weight, double eps, const at::Tensor& grad_x, const at::Tensor& grad_weight,
              const at::Tensor& grad_bias) {
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), Norm<float>::kName, [&] {
    backward_loop<Norm, scalar_t>(grad_out, grad_residual_out, x, weight, eps, grad_x, grad_weight,
                                  grad_bias);
  });
}

}  // namespace generated_rmsnorm::row_norm::cpu

#undef ROW_NORM_INLINE
