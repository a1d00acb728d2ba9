# ruff: noqa: E501
"""Lab CI's variant (issue 11; session 63, 2026-12-01) of a rendered norm project (csrc/row_norm/cuda.cuh
of main, a105f85). Lab CH's time_modes (ch/ch/modes_*.txt) put LayerNorm's bfloat16 gap to
torch.compile at 4096 x 1024 in the kernel: one call alone, L2 flushed, torch.compile's took 0.866 of
ours less the floor. Labs CC to CG each changed one part of forward_rows (parameters' L1, their loads
together, the start's divisions, the warp's sums) and gained at most 2.2%; lab CD counted 772
instructions a warp against Inductor's 390. Here all of it at once, as a kernel of its own:
`wr`: rows held in registers on one warp that start on a vector boundary (kCached, not kShifted, a
      cluster of one, row_threads 32: at the benchmark's shapes the forwards at 4096 x 1024 in every
      dtype) take warp_rows_forward_kernel: row and lane by shifts, a warp that has no row leaves at
      once (it shares nothing with the block's other warps), x (and residual) read, the weight and
      bias read before the reduction where x's and their vectors take at most kWarpRowHeldBytes a
      thread (LayerNorm's and RMSNorm's 16-bit rows; not float32's, whose x alone takes 128), LayerNorm's
      mean by a butterfly of the sums of x - (the row's first element, from lane 0 by a shuffle), then
      the squared deviations about that mean by a second butterfly (RMSNorm: the squares alone), no
      Moments, vote, division or row_origin load; the output as forward_rows writes it. Every lane of
      a row ends with the same bits (partners add the same two values). Other rows as base. y's bits
      change (the statistics round differently).
    python3 variant_ci.py PROJECT wr"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import main_with  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"
ANCHOR = "// The forward kernel, in two builds of the same code"
KERNEL = (
    ANCHOR,
    r"""// Lab CI's wr: rows of one warp held in registers from a vector boundary (see variant_ci.py).
constexpr int kWarpRowHeldBytes = 192;

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int offset = core::kWarp / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

template <template <typename> class Norm, typename scalar_t, typename param_t, int kVec, int kItems>
__global__ void __launch_bounds__(kSmallRowBlockThreads)
    warp_rows_forward_kernel(const scalar_t* __restrict__ x, const scalar_t* __restrict__ residual,
                             const param_t* __restrict__ weight, const param_t* __restrict__ bias,
                             scalar_t* __restrict__ y, scalar_t* __restrict__ residual_out, int64_t rows,
                             int64_t cols, at::opmath_type<scalar_t> eps) {
  using opmath_t = at::opmath_type<scalar_t>;
  using V = core::Vector<scalar_t, kVec>;
  using P = core::Vector<param_t, kVec>;
  constexpr bool kCentered = Norm<opmath_t>::kCentered;
  constexpr bool kBias = Norm<opmath_t>::kBias;
  constexpr bool kResidual = Norm<opmath_t>::kResidual;
  constexpr bool kPrefetch =
      kItems * (static_cast<int>(sizeof(V)) + static_cast<int>(sizeof(P)) * (kBias ? 2 : 1)) <= kWarpRowHeldBytes;
  const int lane = static_cast<int>(threadIdx.x % core::kWarp);
  const int64_t row = static_cast<int64_t>(blockIdx.x) * (blockDim.x / core::kWarp) + threadIdx.x / core::kWarp;
  if (row >= rows) return;  // the whole warp: its row's reductions are its own
  const int col_vecs = static_cast<int>(cols / kVec);
  const int64_t offset = row * cols;
  const auto valid = [&](int i) { return i * core::kWarp + lane < col_vecs; };
  const auto column = [&](int i) { return i * core::kWarp + lane; };
  const V* x_row = reinterpret_cast<const V*>(x + offset);
  V items[kItems];
  P w_items[kPrefetch ? kItems : 1], b_items[kPrefetch && kBias ? kItems : 1];
  if constexpr (kResidual) {
    const V* residual_row = reinterpret_cast<const V*>(residual + offset);
    V* sum_row = reinterpret_cast<V*>(residual_out + offset);
    if constexpr (sizeof(scalar_t) == 2) {
      V addends[kItems];
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        if (!valid(i)) continue;
        items[i] = load_vector(x_row + column(i));
        addends[i] = load_vector(residual_row + column(i));
      }
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        if (!valid(i)) continue;
        opmath_t a[kVec], b[kVec];
        core::load_opmath_by_words(items[i], a);
        core::load_opmath_by_words(addends[i], b);
#pragma unroll
        for (int e = 0; e < kVec; ++e) a[e] += b[e];
        items[i] = core::round_to<scalar_t, kVec>(a);
        sum_row[column(i)] = items[i];
      }
    } else {
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        if (!valid(i)) continue;
        opmath_t a[kVec], b[kVec];
        core::load_opmath(load_streaming(x_row + column(i)), a);
        core::load_opmath(load_streaming(residual_row + column(i)), b);
#pragma unroll
        for (int e = 0; e < kVec; ++e) a[e] += b[e];
        items[i] = core::round_to<scalar_t, kVec>(a);
        sum_row[column(i)] = items[i];
      }
    }
  } else {
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if (valid(i)) items[i] = load_vector(x_row + column(i));
    }
  }
  if constexpr (kPrefetch) {
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if (!valid(i)) continue;
      w_items[i] = load_evict_last(reinterpret_cast<const P*>(weight) + column(i));
      if constexpr (kBias) b_items[i] = load_evict_last(reinterpret_cast<const P*>(bias) + column(i));
    }
  }
  const opmath_t n = static_cast<opmath_t>(cols);
  opmath_t mean = 0;
  if constexpr (kCentered) {
    // The sums of x - shift, shift the row's first element (lane 0's), lose no digits to a mean far
    // from zero.
    opmath_t first = 0;
    if (valid(0)) {
      opmath_t f[kVec];
      core::load_opmath_by_words(items[0], f);
      first = f[0];
    }
    const opmath_t shift = __shfl_sync(0xffffffffu, first, 0);
    opmath_t sum = 0;
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if (!valid(i)) continue;
      opmath_t f[kVec];
      core::load_opmath_by_words(items[i], f);
#pragma unroll
      for (int e = 0; e < kVec; ++e) sum += f[e] - shift;
    }
    mean = shift + warp_sum(sum) / n;
  }
  opmath_t squares = 0;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (!valid(i)) continue;
    opmath_t f[kVec];
    core::load_opmath_by_words(items[i], f);
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      const opmath_t d = f[e] - mean;
      squares += d * d;
    }
  }
  const opmath_t rstd = opmath_t(1) / sqrt(warp_sum(squares) / n + eps);
  V* y_row = reinterpret_cast<V*>(y + offset);
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (!valid(i)) continue;
    opmath_t f[kVec], w[kVec];
    [[maybe_unused]] opmath_t b[kVec];
    forget(items[i]);
    core::load_opmath_by_words(items[i], f);
    if constexpr (kPrefetch) {
      forget(w_items[i]);
      core::load_opmath_by_words(w_items[i], w);
      if constexpr (kBias) forget(b_items[i]), core::load_opmath_by_words(b_items[i], b);
    } else {
      load_parameter<0, true>(weight, 0, column(i), w);
      if constexpr (kBias) load_parameter<0, true>(bias, 0, column(i), b);
    }
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      f[e] = (f[e] - mean) * rstd * weight_scale<Norm>(w[e]);
      if constexpr (kBias) f[e] += b[e];
    }
    y_row[column(i)] = core::round_to<scalar_t, kVec>(f);
  }
}

"""
    + ANCHOR,
)
LAUNCH = (
    """          const int64_t blocks = (rows + g.rows_per_block - 1) / g.rows_per_block * cluster;
          launch(forward_kernel_for""",
    """          const int64_t blocks = (rows + g.rows_per_block - 1) / g.rows_per_block * cluster;
          if constexpr (kCached && !kShifted) {
            if (cluster == 1 && g.row_threads == core::kWarp) {  // lab CI's wr
              launch(warp_rows_forward_kernel<Norm, scalar_t, param_t, kVec, kItems>, blocks, g.block_threads(),
                     0, stream, 1, x.const_data_ptr<scalar_t>(), static_cast<const scalar_t*>(data(residual)),
                     weight.const_data_ptr<param_t>(), bias_data, y.mutable_data_ptr<scalar_t>(),
                     residual_out.defined() ? residual_out.mutable_data_ptr<scalar_t>() : nullptr, rows, cols,
                     static_cast<opmath_t>(eps));
              return;
            }
          }
          launch(forward_kernel_for""",
)
EDITS = {"wr": [KERNEL, LAUNCH]}


if __name__ == "__main__":
    main_with(sys.argv, EDITS, KERNELS)
