# ruff: noqa: E501
"""Lab D1: rewrites a rendered project's csrc/row_norm/cuda.cuh into a variant of forward_staged_kernel.
python3 variant.py PROJECT pf4|pf8|u8
pfK: the parameters of the thread's first K vectors are loaded into registers before the block's and
the cluster's reductions (their L2 latency hidden behind them), the rest as before; u8: the output
pass unrolled 8 deep rather than 4."""

import sys
from pathlib import Path

path = Path(sys.argv[1]) / "csrc/row_norm/cuda.cuh"
variant = sys.argv[2]
s = path.read_text()


def rep(old, new):
    global s
    assert s.count(old) == 1, old[:60]
    s = s.replace(old, new)


if variant == "u8":
    rep(
        "  constexpr int kUnroll = 4;\n  using M = Moments<opmath_t, kCentered>;",
        "  constexpr int kUnroll = 8;\n  using M = Moments<opmath_t, kCentered>;",
    )
else:
    k = int(variant[2:])
    rep(
        """  M stats = M::of_sums(elements, shift, sum, squares);
  stats = row_reduce<true>(stats, blockDim.x, smem);
  stats = cluster_reduce(stats, &cluster_slot, cluster);""",
        f"""  constexpr int kPrefetch = {k};
  using P = core::Vector<param_t, kVec>;
  P w_pre[kPrefetch];
  [[maybe_unused]] P b_pre[kPrefetch];
  const P* weight_vectors = reinterpret_cast<const P*>(weight + first * kVec);
  [[maybe_unused]] const P* bias_vectors = kBias ? reinterpret_cast<const P*>(bias + first * kVec) : nullptr;
#pragma unroll
  for (int i = 0; i < kPrefetch; ++i) {{
    const int64_t j = threadIdx.x + static_cast<int64_t>(i) * blockDim.x;
    if (j < count) {{
      w_pre[i] = load_vector(weight_vectors + j);
      if constexpr (kBias) b_pre[i] = load_vector(bias_vectors + j);
    }}
  }}
  M stats = M::of_sums(elements, shift, sum, squares);
  stats = row_reduce<true>(stats, blockDim.x, smem);
  stats = cluster_reduce(stats, &cluster_slot, cluster);""",
    )
    rep(
        """  [[maybe_unused]] const param_t* bias_slice = kBias ? bias + first * kVec : nullptr;
#pragma unroll kUnroll
  for (int64_t j = threadIdx.x; j < count; j += blockDim.x) {""",
        """  [[maybe_unused]] const param_t* bias_slice = kBias ? bias + first * kVec : nullptr;
#pragma unroll
  for (int i = 0; i < kPrefetch; ++i) {
    const int64_t j = threadIdx.x + static_cast<int64_t>(i) * blockDim.x;
    if (j < count) {
      opmath_t f[kVec], w[kVec];
      [[maybe_unused]] opmath_t b[kVec];
      core::load_opmath_by_words(staged[j], f);
      core::load_opmath_by_words(w_pre[i], w);
      if constexpr (kBias) core::load_opmath_by_words(b_pre[i], b);
#pragma unroll
      for (int e = 0; e < kVec; ++e) {
        f[e] = (f[e] - mean) * rstd * (w[e] + kOffset);
        if constexpr (kBias) f[e] += b[e];
      }
      y_slice[j] = core::round_to<scalar_t, kVec>(f);
    }
  }
#pragma unroll kUnroll
  for (int64_t j = threadIdx.x + static_cast<int64_t>(kPrefetch) * blockDim.x; j < count; j += blockDim.x) {""",
    )
path.write_text(s)
print("variant", variant, "written to", path)
