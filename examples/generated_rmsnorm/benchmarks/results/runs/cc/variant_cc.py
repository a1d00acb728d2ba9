"""Lab CC's variant (issue 11; prepared in session 61, 2026-12-01) of a rendered norm project
(csrc/row_norm/cuda.cuh of main, 123a52d). The forward reads the weight and bias of a thread's
columns into registers before the row's reduction only where they take at most
kPrefetchParameterBytes (64) a thread, or kPrefetchWeightBytes (128) for a 16-bit weight without a
bias; the LayerNorms' rows of four vectors a thread (128 bytes of weight and bias) read them after
the reduction, a second wait on memory (L2) in each row. At 4096 x 1024 (one row a warp, four 16-byte
vectors a thread, the whole grid resident at once) torch.compile's forward took 0.88 and 0.90 of
LayerNorm's 16-bit device time in calls CB's tables, where RMSNorm's 16-bit forward, whose 64 bytes
of weight it reads first, took within 0.96 of torch.compile's. Here:
`pf4`: the parameters read before the reduction also where a thread has at most four vectors and
       they take at most 128 bytes (lab RN5 had 128 bytes for every case slower, at eight vectors a
       thread: the float32 RMSNorm forward at 8192 x 8192, 77% of the copy rate against 96%).
`pfl1`: base, with each thread's parameter vectors fetched into L1 (prefetch.global.L1) before the
       reduction where they are read after it, in rows of at most four vectors a thread held in
       registers that start on a vector boundary, so that the reads after it hit L1, with no
       registers held across the reduction. pf4's forward kernels at four vectors a thread took 83
       to 106 registers a thread against base's 46 to 78 (nvcc 13.0, sm_90a; ptxas_cc.txt): at
       4096 x 1024 the grid's 4096 warps then no longer fit the GPU at once. pfl1 leaves every
       kernel's registers and spills as base's; at eight vectors a thread too, the prefetches cost
       up to 18 more registers a thread (the residual-add LayerNorm's float32 kernel of the goal
       cell at 4096 x 16384 82 against 64), so pfl1 leaves those rows alone.
    python3 variant_cc.py PROJECT pf4|pfl1"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import main_with  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"
PF4 = (
    "      kCached && (kParameterBytes <= kPrefetchParameterBytes ||\n"
    "                  (!kBias && sizeof(param_t) == 2 && kParameterBytes <= kPrefetchWeightBytes));\n",
    "      kCached && (kParameterBytes <= kPrefetchParameterBytes ||\n"
    "                  (kItems <= 4 && kParameterBytes <= 128) ||\n"
    "                  (!kBias && sizeof(param_t) == 2 && kParameterBytes <= kPrefetchWeightBytes));\n",
)
PFL1 = (
    "    // LayerNorm: one look at the registers gives the sums of d = x - shift and of d^2, with shift\n",
    """    // Lab CC's pfl1: the parameters read after the reduction, fetched into L1 before it.
    if (pass == 0 && kCached && !kPrefetch && !kShifted && kItems <= 4) {
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        if (!valid(0, i)) continue;
        asm volatile("prefetch.global.L1 [%0];" ::"l"(reinterpret_cast<const P*>(weight) + column(0, i)));
        if constexpr (kBias) {
          asm volatile("prefetch.global.L1 [%0];" ::"l"(reinterpret_cast<const P*>(bias) + column(0, i)));
        }
      }
    }
    // LayerNorm: one look at the registers gives the sums of d = x - shift and of d^2, with shift
""",
)
EDITS = {"pf4": [PF4], "pfl1": [PFL1]}


if __name__ == "__main__":
    main_with(sys.argv, EDITS, KERNELS)
