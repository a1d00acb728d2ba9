"""Lab CF's variant (issue 11; session 62, 2026-12-01) of a rendered norm project (csrc/row_norm/cuda.cuh
of main, 4819c47). Lab CD's Nsight Compute had LayerNorm's bfloat16 forward at 4096 x 1024 execute
twice torch.compile's instructions; lab CE's pw4 (the parameters' loads issued together) did not
help (ce/compare_ce.txt). forward_rows starts with two 32-bit divisions and a remainder by
row_threads (blockDim.x / row_threads, threadIdx.x / and % row_threads: cd/sass/; one reciprocal
shared, and a division by the cluster branched around where it is 1, which nodiv keeps; corrected
after the run, session 62's review: this said three divisions), tens of instructions in SASS before
the row's address and so before its first load. Here:
`nodiv`: the same indices by a mask and shifts: make_row_geometry gives row_threads as a power of
         two up to a warp (rows_per_block = block / row_threads), or a multiple of a warp that fills
         the block (one row a block, t = threadIdx.x), and every forward launch takes its geometry.
    python3 variant_cf.py PROJECT nodiv"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import main_with  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"
NODIV = (
    """  const int t = threadIdx.x % row_threads;
  const int64_t block_row = cluster > 1 ? blockIdx.x / cluster : blockIdx.x;
  const int64_t row = block_row * (blockDim.x / row_threads) + threadIdx.x / row_threads;
""",
    """  // Lab CF's nodiv: row_threads is a power of two up to a warp, or a multiple of a warp that fills
  // the block (make_row_geometry): a mask and shifts instead of divisions.
  const bool whole_block = row_threads > core::kWarp;
  const int row_shift = __ffs(row_threads) - 1;
  const int lane_in_block = static_cast<int>(threadIdx.x);
  const int t = whole_block ? lane_in_block : lane_in_block & (row_threads - 1);
  const int64_t block_row = cluster > 1 ? blockIdx.x / cluster : blockIdx.x;
  const int64_t row =
      whole_block ? block_row : block_row * (blockDim.x >> row_shift) + (threadIdx.x >> row_shift);
""",
)
EDITS = {"nodiv": [NODIV]}


if __name__ == "__main__":
    main_with(sys.argv, EDITS, KERNELS)
