"""Lab CG's variant (issue 11; session 62, 2026-12-01) of a rendered norm project (csrc/row_norm/cuda.cuh
of main, 4819c47). Lab CF's Nsight Compute per SASS instruction (cf/sass_profile_cf.txt) had
LayerNorm's bfloat16 forward at 4096 x 1024 execute 772 instructions a warp against torch.compile's
390, its row's statistics (Moments combined in a butterfly, a vote and a division's fallback each
step, the combination of the thread's sums with a division, the rstd's IEEE division and square
root) about 240 of them against Inductor's two butterflies of sums. Here:
`wsum`: LayerNorm's rows of at most a warp's threads, held in registers, that start on a vector
        boundary (kCached, not kShifted; the row's threads one warp or part of one): their mean by
        a butterfly of the threads' sums, then the sum of squared deviations about that mean by a
        second butterfly, as Inductor's kernel takes them; row_origin's load skipped there. Every
        lane of a row ends with the same bits (partners add the same two values). Other rows as
        base. The statistics round differently from base's: y's bits change.
    python3 variant_cg.py PROJECT wsum"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import main_with  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"
ORIGIN = (
    """  const opmath_t origin = kCentered ? row_origin<kResidual>(x, residual, row_offset) : opmath_t(0);
  M stats{};
""",
    """  // Lab CG's wsum: rows of at most a warp's threads held in registers from a vector boundary take
  // their mean and squared deviations by two butterflies of sums (below the loop).
  const bool warp_sums = kCentered && kCached && !kShifted && row_threads <= core::kWarp;
  const opmath_t origin =
      kCentered && !warp_sums ? row_origin<kResidual>(x, residual, row_offset) : opmath_t(0);
  M stats{};
""",
)
SKIP = (
    "    // LayerNorm: one look at the registers gives the sums of d = x - shift and of d^2, with shift\n",
    """    if (warp_sums) continue;  // (lab CG) a pass of registers: the sums below the loop
    // LayerNorm: one look at the registers gives the sums of d = x - shift and of d^2, with shift
""",
)
REDUCE = (
    """  stats = row_reduce<!kShifted>(stats, row_threads, smem);  // shifted rows: some threads hold an edge
  if (cluster > 1) stats = cluster_reduce(stats, &cluster_slot, cluster);
  const opmath_t n = static_cast<opmath_t>(cols);
  opmath_t mean = kCentered ? origin + stats.mean : opmath_t(0);
""",
    """  const opmath_t n = static_cast<opmath_t>(cols);
  opmath_t mean = 0;
  [[maybe_unused]] opmath_t warp_m2 = 0;
  if (warp_sums) {
    // (lab CG) The row's sum, its mean, then the sum of squared deviations about it.
    opmath_t sum = 0;
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if (!valid(0, i)) continue;
      opmath_t f[kVec];
      core::load_opmath_by_words(items[i], f);
#pragma unroll
      for (int e = 0; e < kVec; ++e) sum += f[e];
    }
    for (int offset = row_threads / 2; offset > 0; offset /= 2) {
      sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    }
    mean = sum / n;
    opmath_t squares = 0;
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if (!valid(0, i)) continue;
      opmath_t f[kVec];
      core::load_opmath_by_words(items[i], f);
#pragma unroll
      for (int e = 0; e < kVec; ++e) {
        const opmath_t d = f[e] - mean;
        squares += d * d;
      }
    }
    for (int offset = row_threads / 2; offset > 0; offset /= 2) {
      squares += __shfl_xor_sync(0xffffffffu, squares, offset);
    }
    warp_m2 = squares;
  } else {
    stats = row_reduce<!kShifted>(stats, row_threads, smem);  // shifted rows: some threads hold an edge
    if (cluster > 1) stats = cluster_reduce(stats, &cluster_slot, cluster);
    mean = kCentered ? origin + stats.mean : opmath_t(0);
  }
""",
)
RSTD = (
    "  const opmath_t rstd = opmath_t(1) / sqrt(stats.m2 / n + eps);\n",
    "  const opmath_t rstd = opmath_t(1) / sqrt((warp_sums ? warp_m2 : stats.m2) / n + eps);\n",
)
EDITS = {"wsum": [ORIGIN, SKIP, REDUCE, RSTD]}


if __name__ == "__main__":
    main_with(sys.argv, EDITS, KERNELS)
