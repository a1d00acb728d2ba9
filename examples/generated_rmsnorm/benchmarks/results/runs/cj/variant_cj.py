# ruff: noqa: E501
"""Lab CJ's variants (issue 11; session 63, 2026-12-01) of a rendered norm project (csrc/row_norm/cuda.cuh
of main, a105f85), on lab CI's wr (ci/variant_ci.py). wr's LayerNorm forwards at 4096 x 1024 were no
faster than base's (bfloat16 1.009, float16 1.075) where its RMSNorm's gained (0.970 to 0.988); wr's
LayerNorm takes two passes over the thread's elements, each one chain of dependent additions (32 in
the 16-bit rows of four vectors a thread), and two butterflies. Here:
`wr2`:  wr, with each pass summing into kVec partial sums (one a vector element: chains of kItems
        additions, kItems in flight) added at the end in a fixed tree, so that a row's statistics
        wait on chains of kItems + log2(kVec) additions instead of kItems x kVec; rows of at most
        64 bytes of x a thread bounded to 64 registers (8 blocks of 128 threads a multiprocessor:
        see BOUNDS). Bits as wr's change.
`wr2b`: wr2, with the warp rows' kernel launched on blocks of one warp (a block a row: 4,096 blocks
        at 4096 x 1024, as Inductor launches its kernel) instead of kSmallRowBlockThreads threads.
`wr3`:  (lab CK, after lab CJ's run) wr2, with 16-bit rows alone launched on blocks of one warp.
    python3 variant_cj.py PROJECT wr2|wr2b|wr3"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ci"))
from variant_bd import main_with  # noqa: E402
from variant_ci import EDITS as CI_EDITS  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"
TREE = (
    """template <typename T>
__device__ __forceinline__ T warp_sum(T v) {""",
    """// Lab CJ's wr2: the sum of a thread's kVec partial sums, in a fixed tree.
template <int kCount, typename T>
__device__ __forceinline__ T tree_sum(const T (&v)[kCount]) {
  if constexpr (kCount == 1) {
    return v[0];
  } else {
    T half[kCount / 2];
#pragma unroll
    for (int k = 0; k < kCount / 2; ++k) half[k] = v[2 * k] + v[2 * k + 1];
    return tree_sum<kCount / 2>(half);
  }
}

template <typename T>
__device__ __forceinline__ T warp_sum(T v) {""",
)
# The two passes' sums as kVec partial sums, each edit the one line it changes in wr's kernel (so
# written after lab CJ ran, from whole blocks: the patched sources are byte-identical to what ran).
SUM = [
    ("    opmath_t sum = 0;\n", "    opmath_t sum[kVec] = {};\n"),
    ("sum += f[e] - shift;", "sum[e] += f[e] - shift;"),
    ("warp_sum(sum) / n;", "warp_sum(tree_sum(sum)) / n;"),
]
SQUARES = [
    ("  opmath_t squares = 0;\n", "  opmath_t squares[kVec] = {};\n"),
    ("f[e] - mean;\n      squares += d * d;", "f[e] - mean;\n      squares[e] += d * d;"),
    ("sqrt(warp_sum(squares) / n + eps)", "sqrt(warp_sum(tree_sum(squares)) / n + eps)"),
]
# ptxas gave wr2's LayerNorm 16-bit kernels of four vectors a thread 67 and 66 registers: 7 blocks of
# 128 threads a multiprocessor, 924 on 132, fewer than the 1,024 of 4096 x 1024 (two waves); at most
# 64 keep 8 (one wave), as wr's 64 did. Rows of at most 64 bytes of x a thread ask for 8 blocks.
BOUNDS = (
    """__global__ void __launch_bounds__(kSmallRowBlockThreads)
    warp_rows_forward_kernel(""",
    """__global__ void __launch_bounds__(kSmallRowBlockThreads, kItems * sizeof(core::Vector<scalar_t, kVec>) <= 64 ? 8 : 1)
    warp_rows_forward_kernel(""",
)
ONE_WARP_BLOCKS = (
    """              launch(warp_rows_forward_kernel<Norm, scalar_t, param_t, kVec, kItems>, blocks, g.block_threads(),
                     0, stream, 1,""",
    """              launch(warp_rows_forward_kernel<Norm, scalar_t, param_t, kVec, kItems>, rows, core::kWarp,
                     0, stream, 1,""",
)
# wr3 (after lab CJ's run): one-warp blocks for 16-bit rows alone; float32's (which took 1.102 of
# base's time on them at 4096 x 1024, as b32's 1.098 in lab CH) and float64's keep wr2's blocks.
SIXTEEN_BIT_ONE_WARP_BLOCKS = (
    """              launch(warp_rows_forward_kernel<Norm, scalar_t, param_t, kVec, kItems>, blocks, g.block_threads(),
                     0, stream, 1,""",
    """              constexpr bool kOneWarpBlocks = sizeof(scalar_t) == 2;
              launch(warp_rows_forward_kernel<Norm, scalar_t, param_t, kVec, kItems>, kOneWarpBlocks ? rows : blocks,
                     kOneWarpBlocks ? core::kWarp : g.block_threads(), 0, stream, 1,""",
)
WR2 = [*CI_EDITS["wr"], TREE, *SUM, *SQUARES, BOUNDS]
EDITS = {"wr2": WR2, "wr2b": [*WR2, ONE_WARP_BLOCKS], "wr3": [*WR2, SIXTEEN_BIT_ONE_WARP_BLOCKS]}


if __name__ == "__main__":
    main_with(sys.argv, EDITS, KERNELS)
