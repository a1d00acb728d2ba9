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
#include <ATen/ops/zeros.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "core/common.h"
#include "core/cpu_vector.h"

namespace generated_rmsnorm::row_norm::cpu {

// Elements per parallel task: enough that a task outweighs its scheduling cost.
constexpr int64_t kGrainElements = 32768;
// grad_weight (and grad_bias) are summed over fixed chunks of rows (at most kChunks, each of at least
// kRowsPerChunk rows), then over the chunks in order: the result depends on the shape only, never on
// the number of threads.
constexpr int64_t kChunks = 64;
constexpr int64_t kRowsPerChunk = 16;

// The sum of a vector's lanes, in lane order (the same bits on every call).
template <typename V>
typename V::value_type lane_sum(const V& v) {
  typename V::value_type lanes[V::size()];
  v.store(lanes);
  typename V::value_type total = 0;
  for (int i = 0; i < V::size(); ++i) total += lanes[i];
  return total;
}

// A parameter (weight, bias; of x's dtype or float32) as opmath_t, plus `offset` (Gemma's 1 + weight):
// converted once per call.
template <typename opmath_t>
std::vector<opmath_t> parameter_as_opmath(const at::Tensor& p, double offset) {
  const at::Tensor converted = p.to(c10::CppTypeToScalarType<opmath_t>::value).contiguous();
  const opmath_t* data = converted.const_data_ptr<opmath_t>();
  std::vector<opmath_t> out(data, data + p.numel());
  if (offset != 0) {
    for (opmath_t& value : out) value += static_cast<opmath_t>(offset);
  }
  return out;
}

// One row of x, converted to opmath_t in `row`, and its statistics: mean (0 for RMSNorm) and rstd =
// 1 / sqrt(variance + eps), where the variance is the mean of (x - mean)^2 (RMSNorm: of x^2). The
// centered form takes a second pass over the converted row, which stays in the L1 or L2 cache.
// With `residual`, the row is x + residual, written to `sum` in x's dtype and taken as rounded there.
template <template <typename> class Norm, typename scalar_t>
struct Row {
  using L = core::Lanes<scalar_t>;
  using V = typename L::V;
  using opmath_t = typename L::opmath_t;
  static constexpr bool kCentered = Norm<opmath_t>::kCentered;

  opmath_t mean = 0;
  opmath_t rstd = 0;

  Row(const scalar_t* x, int64_t cols, opmath_t* row, double eps, const scalar_t* residual = nullptr,
      scalar_t* sum = nullptr) {
    V acc(0);
    for (int64_t c = 0; c < cols; c += L::kStep) {
      const int64_t count = std::min<int64_t>(L::kStep, cols - c);
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
      a.store(row + c, std::min<int64_t>(V::size(), count));
      acc = kCentered ? acc + a : at::vec::fmadd(a, a, acc);
      if constexpr (L::kConverted) {
        if (count > V::size()) {
          b.store(row + c + V::size(), count - V::size());
          acc = kCentered ? acc + b : at::vec::fmadd(b, b, acc);
        }
      }
    }
    const opmath_t n = static_cast<opmath_t>(cols);
    opmath_t variance = lane_sum(acc) / n;
    if constexpr (kCentered) {
      mean = variance;
      const V m(mean);
      V sq(0);
      for (int64_t c = 0; c < cols; c += V::size()) {
        const int64_t count = std::min<int64_t>(V::size(), cols - c);
        const V d = V::set(V(0), V::loadu(row + c, count) - m, count);  // zeros past `count`
        sq = at::vec::fmadd(d, d, sq);
      }
      variance = lane_sum(sq) / n;
    }
    rstd = opmath_t(1) / std::sqrt(variance + static_cast<opmath_t>(eps));
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
  const std::vector<opmath_t> weight = parameter_as_opmath<opmath_t>(weight_t, Norm<opmath_t>::kWeightOffset);
  const std::vector<opmath_t> bias =
      bias_t.defined() ? parameter_as_opmath<opmath_t>(bias_t, 0) : std::vector<opmath_t>();
  const scalar_t* x = x_t.const_data_ptr<scalar_t>();
  const scalar_t* residual = residual_t.defined() ? residual_t.const_data_ptr<scalar_t>() : nullptr;
  scalar_t* residual_out = residual_t.defined() ? residual_out_t.mutable_data_ptr<scalar_t>() : nullptr;
  scalar_t* y = y_t.mutable_data_ptr<scalar_t>();
  const int64_t grain = std::max<int64_t>(1, kGrainElements / cols);
  at::parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
    std::vector<opmath_t> row(cols);
    for (int64_t r = begin; r < end; ++r) {
      const int64_t offset = r * cols;
      const R stats = residual == nullptr
                          ? R(x + offset, cols, row.data(), eps)
                          : R(x + offset, cols, row.data(), eps, residual + offset, residual_out + offset);
      const V mean(stats.mean), rstd(stats.rstd);
      scalar_t* y_row = y + r * cols;
      for (int64_t c = 0; c < cols; c += L::kStep) {
        const int64_t count = std::min<int64_t>(L::kStep, cols - c);
        V out[2];
        for (int part = 0; part * V::size() < count && part < 2; ++part) {
          const int64_t at = c + part * V::size();
          const int64_t n = std::min<int64_t>(V::size(), count - part * V::size());
          V h = (V::loadu(row.data() + at, n) - mean) * rstd * V::loadu(weight.data() + at, n);
          if (!bias.empty()) h = h + V::loadu(bias.data() + at, n);
          out[part] = h;
        }
        L::store(y_row + c, count, out[0], out[1]);
      }
    }
  });
}

// grad_x = rstd * (w dy - mean(w dy) - x_hat * mean(x_hat * w dy)) for LayerNorm, without the
// mean(w dy) term for RMSNorm, with x_hat = (x - mean) * rstd, plus grad_residual_out where given;
// grad_weight = sum over the rows of dy * x_hat; grad_bias = sum over the rows of dy.
template <template <typename> class Norm, typename scalar_t>
void backward_loop(const at::Tensor& grad_out_t, const at::Tensor& grad_residual_out_t, const at::Tensor& x_t,
                   const at::Tensor& weight_t, double eps, const at::Tensor& grad_x_t,
                   const at::Tensor& grad_weight_t, const at::Tensor& grad_bias_t) {
  using R = Row<Norm, scalar_t>;
  using L = typename R::L;
  using V = typename R::V;
  using opmath_t = typename R::opmath_t;
  constexpr bool kCentered = R::kCentered;
  const bool with_bias = grad_bias_t.defined();
  const int64_t cols = x_t.size(-1);
  const int64_t rows = x_t.numel() / cols;
  const std::vector<opmath_t> weight = parameter_as_opmath<opmath_t>(weight_t, Norm<opmath_t>::kWeightOffset);
  const scalar_t* grad_out = grad_out_t.const_data_ptr<scalar_t>();
  const scalar_t* x = x_t.const_data_ptr<scalar_t>();
  const scalar_t* grad_residual_out =
      grad_residual_out_t.defined() ? grad_residual_out_t.const_data_ptr<scalar_t>() : nullptr;
  scalar_t* grad_x = grad_x_t.mutable_data_ptr<scalar_t>();

  // One row of partial sums per chunk of rows and per parameter, in PyTorch's allocator.
  const int64_t most_chunks = std::clamp<int64_t>(rows / kRowsPerChunk, 1, kChunks);
  const int64_t rows_per_chunk = (rows + most_chunks - 1) / most_chunks;
  const int64_t chunks = (rows + rows_per_chunk - 1) / rows_per_chunk;  // none of them empty
  const at::Tensor partial_t = at::zeros({with_bias ? 2 : 1, chunks, cols},
                                         x_t.options().dtype(c10::CppTypeToScalarType<opmath_t>::value));
  opmath_t* partial_weight = partial_t.mutable_data_ptr<opmath_t>();
  opmath_t* partial_bias = partial_weight + chunks * cols;

  at::parallel_for(0, chunks, 1, [&](int64_t begin, int64_t end) {
    std::vector<opmath_t> row(cols), dy(cols);
    for (int64_t chunk = begin; chunk < end; ++chunk) {
      opmath_t* acc_w = partial_weight + chunk * cols;
      opmath_t* acc_b = partial_bias + chunk * cols;
      const int64_t row_end = std::min(rows, (chunk + 1) * rows_per_chunk);
      for (int64_t r = chunk * rows_per_chunk; r < row_end; ++r) {
        const R stats(x + r * cols, cols, row.data(), eps);
        const V mean(stats.mean), rstd(stats.rstd);
        // dy in opmath_t; the row sums of x_hat * w dy and of w dy.
        V dot(0), wdy_sum(0);
        for (int64_t c = 0; c < cols; c += L::kStep) {
          const int64_t count = std::min<int64_t>(L::kStep, cols - c);
          V a, b;
          L::load(grad_out + r * cols + c, count, a, b);  // lanes past `count` are zeros
          a.store(dy.data() + c, std::min<int64_t>(V::size(), count));
          if constexpr (L::kConverted) {
            if (count > V::size()) b.store(dy.data() + c + V::size(), count - V::size());
          }
        }
        for (int64_t c = 0; c < cols; c += V::size()) {
          const int64_t n = std::min<int64_t>(V::size(), cols - c);
          const V g = V::loadu(dy.data() + c, n);  // zeros past n
          const V x_hat = (V::loadu(row.data() + c, n) - mean) * rstd;
          const V wdy = g * V::loadu(weight.data() + c, n);
          dot = at::vec::fmadd(x_hat, wdy, dot);
          if constexpr (kCentered) wdy_sum = wdy_sum + wdy;
          at::vec::fmadd(g, x_hat, V::loadu(acc_w + c, n)).store(acc_w + c, n);
          if (with_bias) (V::loadu(acc_b + c, n) + g).store(acc_b + c, n);
        }
        const opmath_t n_cols = static_cast<opmath_t>(cols);
        const V c1(lane_sum(dot) / n_cols);
        const V c2(kCentered ? lane_sum(wdy_sum) / n_cols : opmath_t(0));
        scalar_t* grad_x_row = grad_x + r * cols;
        for (int64_t c = 0; c < cols; c += L::kStep) {
          const int64_t count = std::min<int64_t>(L::kStep, cols - c);
          V out[2];
          for (int part = 0; part * V::size() < count && part < 2; ++part) {
            const int64_t at = c + part * V::size();
            const int64_t n = std::min<int64_t>(V::size(), count - part * V::size());
            const V x_hat = (V::loadu(row.data() + at, n) - mean) * rstd;
            const V wdy = V::loadu(dy.data() + at, n) * V::loadu(weight.data() + at, n);
            out[part] = (wdy - c2 - x_hat * c1) * rstd;
          }
          if (grad_residual_out != nullptr) {
            V a, b;
            L::load(grad_residual_out + r * cols + c, count, a, b);
            out[0] = out[0] + a;
            if constexpr (L::kConverted) out[1] = out[1] + b;
          }
          L::store(grad_x_row + c, count, out[0], out[1]);
        }
      }
    }
  });

  // The chunks' sums, added in the chunks' order, rounded to each parameter's dtype.
  const auto finish = [&](const opmath_t* partial, const at::Tensor& grad) {
    at::Tensor sums_t = at::empty({cols}, partial_t.options());
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
