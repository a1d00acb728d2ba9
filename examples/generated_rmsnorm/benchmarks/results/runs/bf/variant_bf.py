"""Lab BF's variant (issue 11) of a rendered row-norm project's csrc/row_norm/cuda.cuh: `two`, the
residual-add RMSNorm's 16-bit rows of 257 to 1024 vectors that start on a vector boundary take two
vectors a thread on up to kMaxRowThreads threads (the forward's dispatch gains two vectors a thread)
where main gives them four on up to kPreferredRowThreads. Liger-Kernel's fused add + RMSNorm takes
the row as one Triton block of 16 warps (512 threads) at N = 8192, 8 at N = 4096: two 16-byte
vectors a thread in bfloat16, and its forward at 8192 x 8192 was 4 to 5% faster than ours in call BB
(runs/bb/goal_status.txt), where lab BB0 found ours on 256 threads of four vectors each.
    python3 variant_bf.py PROJECT two"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import variants  # noqa: E402

FEW_ROWS = "  if (rows <= core::multiprocessor_count()) return pick_items(rows, col_vecs, kForwardItems);\n"
TWO = FEW_ROWS + (
    "  if constexpr (!kShifted && Norm<float>::kResidual && !Norm<float>::kCentered &&\n"
    "                sizeof(scalar_t) == 2) {\n"
    "    if (col_vecs > 8 * core::kWarp && col_vecs <= 2 * kMaxRowThreads) return 2;\n"
    "  }\n"
)
DISPATCH = "void dispatch_items(int items, F&& f) {\n"
DISPATCH_TWO = DISPATCH + (
    "  if constexpr (kMost == kForwardItems) {\n"
    "    if (items == 2) return f(std::integral_constant<int, 2>{}, std::true_type{});\n"
    "  }\n"
)
EDITS = {"two": [(FEW_ROWS, TWO), (DISPATCH, DISPATCH_TWO)]}

if __name__ == "__main__":
    variants.main(EDITS, sys.argv)
