"""Lab CE's variant (issue 11; session 62, 2026-12-01) of a rendered norm project (csrc/row_norm/cuda.cuh
of main, 4819c47). Lab CD's Nsight Compute (cd/ncu_cd.txt) had LayerNorm's bfloat16 forward at 4096 x
1024 execute 3.16 million instructions against torch.compile's 1.60 million; its SASS (cd/sass/) reads
a thread's weight and bias after the row's reduction item by item: the two loads of a vector, its
arithmetic, its store, then the next vector's loads, so that a row of four vectors a thread waits on
four round trips to L2 in turn, where Inductor's kernel issues all eight parameter loads before its
first store (one before its first butterfly, three between its two, four after its rsqrt; corrected
after the run, session 62's review: this said it read x, weight and bias at once). Here:
`pw4`: in rows of at most four vectors a thread held in registers that start on a vector boundary
       (the output pass of kChunk 0, parameters not already read before the reduction), the output
       pass reads every vector of the thread's weight and bias first (as base, load_evict_last: after
       the reduction, with the L2 evict_last policy), packed, then normalizes and writes each
       vector. The same arithmetic in the same order: y's bits do not change.
    python3 variant_ce.py PROJECT pw4"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import main_with  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"
GATHER = (
    """      if (!kCached) load(pass, false);
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        if (!valid(pass, i)) continue;
        const int64_t j = column(pass, i);
        opmath_t f[kVec], w[kVec];
        [[maybe_unused]] opmath_t b[kVec];
        forget(items[i]);
        core::load_opmath_by_words(items[i], f);
        if constexpr (kPrefetch) {
""",
    """      if (!kCached) load(pass, false);
      // Lab CE's pw4: every vector's weight and bias read before the first is used.
      constexpr bool kGather = kCached && !kPrefetch && !kResidual && kChunk == 0 && kItems <= 4 &&
                               sizeof(scalar_t) == 2 && sizeof(param_t) == 2;
      [[maybe_unused]] P w_gathered[kGather ? kItems : 1], b_gathered[kGather && kBias ? kItems : 1];
      if constexpr (kGather) {
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          if (!valid(pass, i)) continue;
          w_gathered[i] = load_evict_last(reinterpret_cast<const P*>(weight) + column(pass, i));
          if constexpr (kBias) {
            b_gathered[i] = load_evict_last(reinterpret_cast<const P*>(bias) + column(pass, i));
          }
        }
      }
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        if (!valid(pass, i)) continue;
        const int64_t j = column(pass, i);
        opmath_t f[kVec], w[kVec];
        [[maybe_unused]] opmath_t b[kVec];
        forget(items[i]);
        core::load_opmath_by_words(items[i], f);
        if constexpr (kGather) {
          forget(w_gathered[i]);
          core::load_opmath_by_words(w_gathered[i], w);
          if constexpr (kBias) forget(b_gathered[i]), core::load_opmath_by_words(b_gathered[i], b);
        } else if constexpr (kPrefetch) {
""",
)
EDITS = {"pw4": [GATHER]}


if __name__ == "__main__":
    main_with(sys.argv, EDITS, KERNELS)
