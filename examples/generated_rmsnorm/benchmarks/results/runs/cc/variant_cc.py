"""Lab CC's variant (issue 11; prepared in session 61, 2026-12-01) of a rendered norm project
(csrc/row_norm/cuda.cuh of main, 123a52d). The forward reads the weight and bias of a thread's
columns into registers before the row's reduction only where they take at most
kPrefetchParameterBytes (64) a thread, or kPrefetchWeightBytes (128) for a 16-bit weight without a
bias; the LayerNorms' rows of four vectors a thread (128 bytes of weight and bias) read them after
the reduction (load_parameter: with an L2 evict_last policy), a second wait on memory in each row.
At 4096 x 1024 (a row a warp, four 16-byte vectors a thread, the whole grid resident at once)
torch.compile's forward took 0.877 and 0.899 of LayerNorm's 16-bit device time in calls CB's
tables. Here:
`pfl1`: each thread's parameter vectors fetched into L1 (prefetch.global.L1) before the reduction
        where they are read after it, in rows of at most four vectors a thread held in registers
        that start on a vector boundary, so that the reads after it (as base's) hit L1. It changes
        no kernel's registers or spills (nvcc 13.0, sm_90a; ptxas_cc.txt). Not tried: at eight
        vectors a thread the prefetches cost up to 23 more registers a thread (the residual-add
        LayerNorm's float32 kernel of the goal cell at 4096 x 16384 82 against 64), and reading the
        parameters into registers before the reduction (`pf4` in ptxas_cc.txt, kPrefetch for these
        rows) took the kernels of four vectors a thread from 46-78 registers to 83-106: above 64,
        fewer than the 32 warps a multiprocessor that 4096 x 1024 needs fit at once; it would
        also read them without the evict_last policy (kPrefetch's reads are plain).
    python3 variant_cc.py PROJECT pfl1"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import main_with  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"
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
EDITS = {"pfl1": [PFL1]}


if __name__ == "__main__":
    main_with(sys.argv, EDITS, KERNELS)
