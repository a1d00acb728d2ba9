// The row normalization family's CUDA kernels: each row of x is normalized over its N elements by a
// group of threads (several rows a block where a row needs fewer than a warp), statistics in float
// (double for float64), 16-byte vectors where N and the pointers allow, one element at a time where
// not. An operator's .cu registers them with ROW_NORM_CUDA_KERNELS (at the end of this file).
//
// Forward: the row is read once into registers (up to kForwardItems vectors a thread), reduced
// (LayerNorm: the mean, then the squares of the deviations from it, from the registers), normalized
// and written. Rows wider than the registers hold are read again for each step (from L2).
//
// Backward: a grid of about as many blocks as the GPU holds at once walks the rows. For each row
// one read of x and grad_out (kept in registers) gives the sums the formula needs (one reduction),
// then the thread writes grad_x and adds grad_out * x_hat (and grad_out) into the thread's own
// columns of grad_weight (grad_bias), in registers. Each row group then writes its sums as one row
// of a float32 workspace, and a second kernel adds those rows column by column in a fixed order:
// the same bits on every run on one GPU (the grid, and so the order, follows the GPU's size). Rows
// wider than the registers hold keep those sums in the workspace instead (one row per block, x and
// grad_out read again from L1 or L2 for grad_x).
#pragma once

#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/library.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <tuple>
#include <type_traits>

#include "core/common.h"
#include "core/cuda.cuh"
#include "row_norm/checks.h"
#include "row_norm/registration.h"

namespace generated_rmsnorm::row_norm::cuda {

// A row takes at most this many threads; wider rows give each thread more vectors.
constexpr int kMaxRowThreads = 512;
// Rows narrower than a warp share a block of this many threads.
constexpr int kSmallRowBlockThreads = 128;
// Vectors of a row a thread keeps in registers: forward (x) and backward (the float sums of its
// columns of grad_weight and grad_bias, kBackwardItems x the vector width each).
constexpr int kForwardItems = 8;
constexpr int kBackwardItems = 4;
// The parameter gradients' second kernel: threads per column strip, and columns per block.
constexpr int kSumColumns = 32;
constexpr int kSumRowsInFlight = 8;

// How the threads of a block share its rows: row_threads threads a row (a power of two up to a warp,
// else a multiple of the warp and one row a block), rows_per_block rows a block.
struct RowGeometry {
  int row_threads;
  int rows_per_block;
  int block_threads() const { return row_threads * rows_per_block; }
};

// The fewest threads a row needs for `col_vecs` vectors at `items` vectors a thread.
inline RowGeometry make_row_geometry(int64_t col_vecs, int items) {
  const int64_t needed = std::max<int64_t>(1, (col_vecs + items - 1) / items);
  if (needed > core::kWarp) {
    const int threads = static_cast<int>(
        std::min<int64_t>(kMaxRowThreads, (needed + core::kWarp - 1) / core::kWarp * core::kWarp));
    return {threads, 1};
  }
  int threads = 1;
  while (threads < needed) threads *= 2;
  return {threads, kSmallRowBlockThreads / threads};
}

// Vectors a thread: the smallest of {1, 4, most} that covers the row with at most
// kPreferredRowThreads threads, else with at most kMaxRowThreads, else 0 (the row is then read in
// several passes). Several vectors a thread keep more bytes in flight per thread than one vector
// each on more threads: at 32768 x 4096 in bfloat16 on an H200 (lab RN1 of the example's
// benchmarks/results/runs/), one vector a thread on 512 threads took the RMSNorm forward to 53% of the
// copy rate, four vectors on 256 threads in float32 to 99%.
constexpr int kPreferredRowThreads = 256;

inline int pick_items(int64_t col_vecs, int most) {
  for (int threads : {kPreferredRowThreads, kMaxRowThreads}) {
    for (int items : {1, 4, most}) {
      if (col_vecs <= static_cast<int64_t>(items) * threads) return items;
    }
  }
  return 0;
}

// The sum over the row_threads threads of each row group of each of the K values, the same bits in
// every thread of the group. smem: K * kWarp values, used where a row spans several warps (then the
// block holds that one row, and every thread of the block must call this).
template <int K, typename T>
__device__ __forceinline__ void row_sum(T (&v)[K], int row_threads, T* smem) {
  const int width = row_threads < core::kWarp ? row_threads : core::kWarp;
  for (int offset = width / 2; offset > 0; offset /= 2) {
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] += __shfl_xor_sync(0xffffffffu, v[k], offset);
  }
  if (row_threads <= core::kWarp) return;
  const int warp = threadIdx.x / core::kWarp, lane = threadIdx.x % core::kWarp;
  const int warps = row_threads / core::kWarp;
  __syncthreads();  // every thread is done with the previous sum's smem
  if (lane == 0) {
#pragma unroll
    for (int k = 0; k < K; ++k) smem[k * core::kWarp + warp] = v[k];
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < K; ++k) v[k] = lane < warps ? smem[k * core::kWarp + lane] : T(0);
  for (int offset = core::kWarp / 2; offset > 0; offset /= 2) {
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] += __shfl_xor_sync(0xffffffffu, v[k], offset);
  }
}

// kVec parameters (weight, bias) from column vector j, as opmath_t.
template <typename opmath_t, typename param_t, int kVec>
__device__ __forceinline__ void load_parameter(const param_t* __restrict__ p, int64_t j,
                                               opmath_t (&out)[kVec]) {
  core::load_opmath(reinterpret_cast<const core::Vector<param_t, kVec>*>(p)[j], out);
}

// ---------------------------------------------------------------------------------------------
// Forward
// ---------------------------------------------------------------------------------------------
// kItems vectors a thread of each of `passes` slices of the row; kCached: one slice, kept in
// registers between the steps.
template <template <typename> class Norm, typename scalar_t, typename param_t, int kVec, int kItems,
          bool kCached>
__global__ void __launch_bounds__(kMaxRowThreads)
    forward_kernel(const scalar_t* __restrict__ x, const param_t* __restrict__ weight,
                   const param_t* __restrict__ bias, scalar_t* __restrict__ y, int64_t rows, int64_t cols,
                   int row_threads, int passes, at::opmath_type<scalar_t> eps) {
  using opmath_t = at::opmath_type<scalar_t>;
  using V = core::Vector<scalar_t, kVec>;
  constexpr bool kCentered = Norm<opmath_t>::kCentered;
  __shared__ opmath_t smem[2 * core::kWarp];
  const int t = threadIdx.x % row_threads;
  const int64_t row =
      static_cast<int64_t>(blockIdx.x) * (blockDim.x / row_threads) + threadIdx.x / row_threads;
  const bool active = row < rows;  // inactive threads still take part in the sums
  const int64_t col_vecs = cols / kVec;
  const V* x_row = reinterpret_cast<const V*>(x + (active ? row : 0) * cols);
  V items[kItems];
  const auto column = [&](int pass, int i) {
    return (static_cast<int64_t>(pass) * kItems + i) * row_threads + t;
  };
  const auto load = [&](int pass) {
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const int64_t j = column(pass, i);
      if (active && j < col_vecs) items[i] = x_row[j];
    }
  };
  // Sum of x (LayerNorm) or of x^2 (RMSNorm).
  opmath_t sum[1] = {0};
  for (int pass = 0; pass < passes; ++pass) {
    load(pass);
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if (!active || column(pass, i) >= col_vecs) continue;
      opmath_t f[kVec];
      core::load_opmath(items[i], f);
#pragma unroll
      for (int e = 0; e < kVec; ++e) sum[0] += kCentered ? f[e] : f[e] * f[e];
    }
  }
  row_sum(sum, row_threads, smem);
  const opmath_t n = static_cast<opmath_t>(cols);
  opmath_t mean = 0, variance = sum[0] / n;
  if constexpr (kCentered) {
    mean = sum[0] / n;
    opmath_t squares[1] = {0};
    for (int pass = 0; pass < passes; ++pass) {
      if (!kCached) load(pass);
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        if (!active || column(pass, i) >= col_vecs) continue;
        opmath_t f[kVec];
        core::load_opmath(items[i], f);
#pragma unroll
        for (int e = 0; e < kVec; ++e) squares[0] += (f[e] - mean) * (f[e] - mean);
      }
    }
    row_sum(squares, row_threads, smem);
    variance = squares[0] / n;
  }
  const opmath_t rstd = opmath_t(1) / sqrt(variance + eps);
  if (!active) return;
  V* y_row = reinterpret_cast<V*>(y + row * cols);
  for (int pass = 0; pass < passes; ++pass) {
    if (!kCached) load(pass);
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const int64_t j = column(pass, i);
      if (j >= col_vecs) continue;
      opmath_t f[kVec], w[kVec], b[kVec];
      core::load_opmath(items[i], f);
      load_parameter<opmath_t, param_t, kVec>(weight, j, w);
      if constexpr (Norm<opmath_t>::kBias) load_parameter<opmath_t, param_t, kVec>(bias, j, b);
#pragma unroll
      for (int e = 0; e < kVec; ++e) {
        f[e] = (f[e] - mean) * rstd * (w[e] + opmath_t(Norm<opmath_t>::kWeightOffset));
        if constexpr (Norm<opmath_t>::kBias) f[e] += b[e];
      }
      y_row[j] = core::round_to<scalar_t, kVec>(f);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Backward
// ---------------------------------------------------------------------------------------------
// grad_x = rstd * (w dy - mean(w dy) - x_hat * mean(x_hat * w dy)) (RMSNorm: without mean(w dy)),
// with w = weight (+ 1 for a zero-centred weight) and x_hat = (x - mean) * rstd.
//
// One read of the row gives the statistics and both means. LayerNorm's sums are taken about the
// row's first element (shift): sum(d), sum(d^2), sum(w dy), sum(d w dy) with d = x - shift, so the
// variance sum(d^2)/N - (sum(d)/N)^2 does not lose the digits that a mean far from zero would.
//
// partial: rows of float sums of grad_out * x_hat (then, with a bias, of grad_out), one per row
// group of the grid ([2][partial_rows][cols] with a bias). kInRegisters: the thread's columns of
// them are summed in registers and written once; else (one row group a block, rows wider than the
// registers hold) they are added in the workspace row by row.
template <template <typename> class Norm, typename scalar_t, typename param_t, int kVec, int kItems,
          bool kInRegisters>
__global__ void __launch_bounds__(kMaxRowThreads)
    backward_kernel(const scalar_t* __restrict__ grad_out, const scalar_t* __restrict__ x,
                    const param_t* __restrict__ weight, scalar_t* __restrict__ grad_x,
                    at::opmath_type<scalar_t>* __restrict__ partial, int64_t rows, int64_t cols,
                    int row_threads, int passes, at::opmath_type<scalar_t> eps) {
  using opmath_t = at::opmath_type<scalar_t>;
  using V = core::Vector<scalar_t, kVec>;
  constexpr bool kCentered = Norm<opmath_t>::kCentered;
  constexpr bool kBias = Norm<opmath_t>::kBias;
  constexpr opmath_t kOffset = opmath_t(Norm<opmath_t>::kWeightOffset);
  __shared__ opmath_t smem[2 * core::kWarp * 2];
  const int rows_per_block = blockDim.x / row_threads;
  const int group = threadIdx.x / row_threads;
  const int t = threadIdx.x % row_threads;
  const int64_t col_vecs = cols / kVec;
  const int64_t partial_rows = static_cast<int64_t>(gridDim.x) * rows_per_block;
  opmath_t* partial_weight = partial + (static_cast<int64_t>(blockIdx.x) * rows_per_block + group) * cols;
  opmath_t* partial_bias = partial_weight + partial_rows * cols;
  opmath_t acc_w[kInRegisters ? kItems : 1][kVec] = {};
  opmath_t acc_b[kInRegisters && kBias ? kItems : 1][kVec] = {};
  const auto column = [&](int pass, int i) {
    return (static_cast<int64_t>(pass) * kItems + i) * row_threads + t;
  };
  [[maybe_unused]] bool first_row = true;

  for (int64_t base = static_cast<int64_t>(blockIdx.x) * rows_per_block; base < rows; base += partial_rows) {
    const int64_t row = base + group;
    const bool active = row < rows;
    const V* x_row = reinterpret_cast<const V*>(x + (active ? row : 0) * cols);
    const V* dy_row = reinterpret_cast<const V*>(grad_out + (active ? row : 0) * cols);
    const opmath_t shift = kCentered && active ? static_cast<opmath_t>(x[row * cols]) : opmath_t(0);
    // In registers: this row's vectors of x and grad_out, read once.
    V x_items[kInRegisters ? kItems : 1], dy_items[kInRegisters ? kItems : 1];
    // RMSNorm: sum(x^2), sum(x w dy). LayerNorm: sum(d), sum(d^2), sum(w dy), sum(d w dy).
    opmath_t sums[kCentered ? 4 : 2] = {};
    for (int pass = 0; pass < passes; ++pass) {
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        const int64_t j = column(pass, i);
        if (!active || j >= col_vecs) continue;
        const V x_vec = x_row[j], dy_vec = dy_row[j];
        if constexpr (kInRegisters) x_items[i] = x_vec, dy_items[i] = dy_vec;
        opmath_t f[kVec], g[kVec], w[kVec];
        core::load_opmath(x_vec, f);
        core::load_opmath(dy_vec, g);
        load_parameter<opmath_t, param_t, kVec>(weight, j, w);
#pragma unroll
        for (int e = 0; e < kVec; ++e) {
          const opmath_t wdy = (w[e] + kOffset) * g[e];
          const opmath_t d = f[e] - shift;
          if constexpr (kCentered) {
            sums[0] += d;
            sums[1] += d * d;
            sums[2] += wdy;
            sums[3] += d * wdy;
          } else {
            sums[0] += d * d;
            sums[1] += d * wdy;
          }
        }
      }
    }
    row_sum(sums, row_threads, smem);
    const opmath_t n = static_cast<opmath_t>(cols);
    opmath_t mean, rstd, c1, c2;  // grad_x = rstd * (w dy - c2 - x_hat * c1)
    if constexpr (kCentered) {
      const opmath_t d_mean = sums[0] / n;
      const opmath_t spread = sums[1] / n - d_mean * d_mean;
      const opmath_t variance = spread > opmath_t(0) ? spread : opmath_t(0);
      mean = shift + d_mean;
      rstd = opmath_t(1) / sqrt(variance + eps);
      c2 = sums[2] / n;
      c1 = rstd * (sums[3] - d_mean * sums[2]) / n;  // mean(x_hat * w dy)
    } else {
      mean = 0;
      rstd = opmath_t(1) / sqrt(sums[0] / n + eps);
      c2 = 0;
      c1 = rstd * sums[1] / n;
    }
    if (active) {
      V* dx_row = reinterpret_cast<V*>(grad_x + row * cols);
      for (int pass = 0; pass < passes; ++pass) {
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          const int64_t j = column(pass, i);
          if (j >= col_vecs) continue;
          opmath_t f[kVec], g[kVec], w[kVec];
          if constexpr (kInRegisters) {
            core::load_opmath(x_items[i], f);
            core::load_opmath(dy_items[i], g);
          } else {
            core::load_opmath(x_row[j], f);
            core::load_opmath(dy_row[j], g);
          }
          load_parameter<opmath_t, param_t, kVec>(weight, j, w);
          opmath_t out[kVec];
#pragma unroll
          for (int e = 0; e < kVec; ++e) {
            const opmath_t x_hat = (f[e] - mean) * rstd;
            out[e] = rstd * ((w[e] + kOffset) * g[e] - c2 - x_hat * c1);
            if constexpr (kInRegisters) {
              acc_w[i][e] += g[e] * x_hat;
              if constexpr (kBias) acc_b[i][e] += g[e];
            } else {
              f[e] = g[e] * x_hat;  // this row's terms, added below
            }
          }
          dx_row[j] = core::round_to<scalar_t, kVec>(out);
          if constexpr (!kInRegisters) {
            auto* pw = reinterpret_cast<core::Vector<opmath_t, kVec>*>(partial_weight) + j;
            auto* pb = reinterpret_cast<core::Vector<opmath_t, kVec>*>(partial_bias) + j;
            core::Vector<opmath_t, kVec> sum_w = first_row ? core::Vector<opmath_t, kVec>{} : *pw;
            core::Vector<opmath_t, kVec> sum_b{};
            if constexpr (kBias) sum_b = first_row ? core::Vector<opmath_t, kVec>{} : *pb;
#pragma unroll
            for (int e = 0; e < kVec; ++e) {
              sum_w.v[e] += f[e];
              if constexpr (kBias) sum_b.v[e] += g[e];
            }
            *pw = sum_w;
            if constexpr (kBias) *pb = sum_b;
          }
        }
      }
    }
    first_row = false;
  }

  if constexpr (kInRegisters) {
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const int64_t j = column(0, i);
      if (j >= col_vecs) continue;
      core::Vector<opmath_t, kVec> w, b;
#pragma unroll
      for (int e = 0; e < kVec; ++e) {
        w.v[e] = acc_w[i][e];
        if constexpr (kBias) b.v[e] = acc_b[i][e];
      }
      reinterpret_cast<core::Vector<opmath_t, kVec>*>(partial_weight)[j] = w;
      if constexpr (kBias) reinterpret_cast<core::Vector<opmath_t, kVec>*>(partial_bias)[j] = b;
    }
  }
}

// grad = the sum of the workspace's `count` rows of `cols` columns, in row order for each column
// (kSumRowsInFlight threads a column take every kSumRowsInFlight-th row, then their sums are added
// in a fixed order), rounded to the parameter's dtype.
template <typename param_t, typename opmath_t>
__global__ void sum_rows_kernel(const opmath_t* __restrict__ partial, param_t* __restrict__ grad,
                                int64_t count, int64_t cols) {
  __shared__ opmath_t sums[kSumRowsInFlight][kSumColumns];
  const int64_t c = static_cast<int64_t>(blockIdx.x) * kSumColumns + threadIdx.x;
  opmath_t total = 0;
  if (c < cols) {
#pragma unroll 8
    for (int64_t r = threadIdx.y; r < count; r += kSumRowsInFlight) total += partial[r * cols + c];
  }
  sums[threadIdx.y][threadIdx.x] = total;
  __syncthreads();
  if (threadIdx.y == 0 && c < cols) {
#pragma unroll
    for (int k = 1; k < kSumRowsInFlight; ++k) total += sums[k][threadIdx.x];
    grad[c] = static_cast<param_t>(total);
  }
}

// ---------------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------------
// The widest vector the row length and every pointer allow: 16 bytes of x, or one element.
template <typename scalar_t, typename param_t>
int pick_vector_width(int64_t cols, std::initializer_list<const void*> data,
                      std::initializer_list<const void*> params) {
  const int vec = core::kMaxVectorBytes / static_cast<int>(sizeof(scalar_t));
  const bool fits =
      cols % vec == 0 && core::aligned_to<scalar_t>(vec, data) && core::aligned_to<param_t>(vec, params);
  return fits ? vec : 1;
}

// Calls f(integral_constant<kVec>) for the widest vector width of scalar_t or 1.
template <typename scalar_t, typename F>
void dispatch_width(int vec, F&& f) {
  constexpr int kWidest = core::kMaxVectorBytes / static_cast<int>(sizeof(scalar_t));
  if (vec == kWidest) {
    f(std::integral_constant<int, kWidest>{});
  } else {
    f(std::integral_constant<int, 1>{});
  }
}

// Calls f(integral_constant<kItems>) for items in {1, 4, kMost}, or for kMost with `cached` false
// where the row needs more (items 0).
template <int kMost, typename F>
void dispatch_items(int items, F&& f) {
  if (items == 1) {
    f(std::integral_constant<int, 1>{}, std::true_type{});
  } else if (items == 4) {
    f(std::integral_constant<int, 4>{}, std::true_type{});
  } else if (items == kMost) {
    f(std::integral_constant<int, kMost>{}, std::true_type{});
  } else {
    f(std::integral_constant<int, kMost>{}, std::false_type{});
  }
}

template <template <typename> class Norm>
at::Tensor forward_cuda(const at::Tensor& x_in, const at::Tensor& weight_in, const at::Tensor& bias_in,
                        double eps) {
  check_inputs(core::unqualified(Norm<float>::kName), x_in, weight_in, bias_in, eps);
  const c10::cuda::CUDAGuard device_guard(x_in.device());
  const at::Tensor x = x_in.contiguous();
  const at::Tensor weight = weight_in.contiguous();
  const at::Tensor bias = bias_in.defined() ? bias_in.contiguous() : at::Tensor();
  at::Tensor y = at::empty(x.sizes(), x.options());
  if (y.numel() == 0) return y;
  const int64_t cols = x.size(-1);
  const int64_t rows = x.numel() / cols;
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), Norm<float>::kName, [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    core::dispatch_parameter_type<scalar_t>(weight.scalar_type(), [&](auto param_tag) {
      using param_t = decltype(param_tag);
      const param_t* bias_data = bias.defined() ? bias.const_data_ptr<param_t>() : nullptr;
      const int vec = pick_vector_width<scalar_t, param_t>(cols, {x.const_data_ptr(), y.const_data_ptr()},
                                                           {weight.const_data_ptr(), bias_data});
      dispatch_width<scalar_t>(vec, [&](auto vec_c) {
        constexpr int kVec = decltype(vec_c)::value;
        const int64_t col_vecs = cols / kVec;
        const int items = pick_items(col_vecs, kForwardItems);
        dispatch_items<kForwardItems>(items, [&](auto items_c, auto cached_c) {
          constexpr int kItems = decltype(items_c)::value;
          constexpr bool kCached = decltype(cached_c)::value;
          const RowGeometry g = make_row_geometry(col_vecs, kItems);
          const int64_t per_pass = static_cast<int64_t>(kItems) * g.row_threads;
          const int passes = static_cast<int>((col_vecs + per_pass - 1) / per_pass);
          const int64_t blocks = (rows + g.rows_per_block - 1) / g.rows_per_block;
          forward_kernel<Norm, scalar_t, param_t, kVec, kItems, kCached>
              <<<static_cast<unsigned>(blocks), g.block_threads(), 0, stream>>>(
                  x.const_data_ptr<scalar_t>(), weight.const_data_ptr<param_t>(), bias_data,
                  y.mutable_data_ptr<scalar_t>(), rows, cols, g.row_threads, passes,
                  static_cast<opmath_t>(eps));
          C10_CUDA_KERNEL_LAUNCH_CHECK();
        });
      });
    });
  });
  return y;
}

template <template <typename> class Norm>
Grads backward_cuda(const at::Tensor& grad_out_in, const at::Tensor& x_in, const at::Tensor& weight_in,
                    const at::Tensor& bias_in, double eps) {
  check_inputs(core::unqualified(Norm<float>::kName), x_in, weight_in, bias_in, eps, grad_out_in);
  const c10::cuda::CUDAGuard device_guard(x_in.device());
  const at::Tensor grad_out = grad_out_in.contiguous();
  const at::Tensor x = x_in.contiguous();
  const at::Tensor weight = weight_in.contiguous();
  Grads grads = allocate_grads(x, weight, bias_in);
  if (x.numel() == 0) return grads;
  // (Named references, not structured bindings, which C++17 lambdas cannot capture.)
  at::Tensor& grad_x = std::get<0>(grads);
  at::Tensor& grad_weight = std::get<1>(grads);
  at::Tensor& grad_bias = std::get<2>(grads);
  const int64_t cols = x.size(-1);
  const int64_t rows = x.numel() / cols;
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), Norm<float>::kName, [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    core::dispatch_parameter_type<scalar_t>(weight.scalar_type(), [&](auto param_tag) {
      using param_t = decltype(param_tag);
      const int vec = pick_vector_width<scalar_t, param_t>(
          cols, {grad_out.const_data_ptr(), x.const_data_ptr(), grad_x.const_data_ptr()},
          {weight.const_data_ptr()});
      dispatch_width<scalar_t>(vec, [&](auto vec_c) {
        constexpr int kVec = decltype(vec_c)::value;
        const int64_t col_vecs = cols / kVec;
        const int items = pick_items(col_vecs, kBackwardItems);
        dispatch_items<kBackwardItems>(items, [&](auto items_c, auto in_registers_c) {
          constexpr int kItems = decltype(items_c)::value;
          constexpr bool kInRegisters = decltype(in_registers_c)::value;
          const auto kernel = backward_kernel<Norm, scalar_t, param_t, kVec, kItems, kInRegisters>;
          const RowGeometry g = make_row_geometry(col_vecs, kItems);
          const int64_t per_pass = static_cast<int64_t>(kItems) * g.row_threads;
          const int passes = static_cast<int>((col_vecs + per_pass - 1) / per_pass);
          static core::OccupancyCache blocks_per_sm_cache{};
          const int resident =
              core::max_blocks_per_sm(kernel, g.block_threads(), 0, blocks_per_sm_cache.data()) *
              core::multiprocessor_count();
          const int64_t blocks =
              std::min<int64_t>(resident, (rows + g.rows_per_block - 1) / g.rows_per_block);
          const int64_t partial_rows = blocks * g.rows_per_block;
          const int64_t params = Norm<float>::kBias ? 2 : 1;
          const at::Tensor partial = at::empty({params, partial_rows, cols},
                                               x.options().dtype(c10::CppTypeToScalarType<opmath_t>::value));
          kernel<<<static_cast<unsigned>(blocks), g.block_threads(), 0, stream>>>(
              grad_out.const_data_ptr<scalar_t>(), x.const_data_ptr<scalar_t>(),
              weight.const_data_ptr<param_t>(), grad_x.mutable_data_ptr<scalar_t>(),
              partial.mutable_data_ptr<opmath_t>(), rows, cols, g.row_threads, passes,
              static_cast<opmath_t>(eps));
          C10_CUDA_KERNEL_LAUNCH_CHECK();
          // Every row of the workspace is written: in registers, each row group writes its row, rows
          // or none; in the workspace, each block (one row group) has at least one row.
          const dim3 sum_block(kSumColumns, kSumRowsInFlight);
          const int64_t sum_blocks = (cols + kSumColumns - 1) / kSumColumns;
          const at::Tensor sums = partial.view({params, partial_rows * cols});
          sum_rows_kernel<param_t, opmath_t><<<static_cast<unsigned>(sum_blocks), sum_block, 0, stream>>>(
              sums[0].const_data_ptr<opmath_t>(), grad_weight.mutable_data_ptr<param_t>(), partial_rows,
              cols);
          C10_CUDA_KERNEL_LAUNCH_CHECK();
          if constexpr (Norm<float>::kBias) {
            sum_rows_kernel<param_t, opmath_t><<<static_cast<unsigned>(sum_blocks), sum_block, 0, stream>>>(
                sums[1].const_data_ptr<opmath_t>(), grad_bias.mutable_data_ptr<param_t>(), partial_rows,
                cols);
            C10_CUDA_KERNEL_LAUNCH_CHECK();
          }
        });
      });
    });
  });
  return grads;
}

}  // namespace generated_rmsnorm::row_norm::cuda

// The line an operator's .cu ends with: ROW_NORM_CUDA_KERNELS(<namespace>, <norm struct>).
#define ROW_NORM_CUDA_KERNELS(ns, Norm)                                                       \
  TORCH_LIBRARY_IMPL(ns, CUDA, m) {                                                           \
    ::ns::row_norm::register_kernels<::ns::norms::Norm,                                       \
                                     ::ns::row_norm::cuda::forward_cuda<::ns::norms::Norm>,   \
                                     ::ns::row_norm::cuda::backward_cuda<::ns::norms::Norm>>( \
        m, c10::DispatchKey::CUDA);                                                           \
  }
