"""Lab CH's variant (issue 11; prepared in session 62, 2026-12-01) of a rendered norm project
(csrc/row_norm/cuda.cuh of main, 0ba20cf). Labs CC to CG changed what each row of LayerNorm's 16-bit
forward at 4096 x 1024 executes and gained at most 2.2% (cg/); torch.compile's kernel there takes
0.877 of ours in calls CB's tables but 0.957 in one call alone (lab CD: Nsight Compute, caches
cold). Its launch differs from ours: 4,096 blocks of one warp (a row each) against our 1,024 blocks
of four (make_row_geometry packs rows of at most a warp's threads into blocks of
kSmallRowBlockThreads, 128). Here:
`b32`: kSmallRowBlockThreads 32: rows of at most a warp's threads in blocks of one warp, in every
       kernel that takes make_row_geometry (the forward's and the backward's). The kernels' code does
       not change (the constant is the host's).
    python3 variant_ch.py PROJECT b32"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import main_with  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"
B32 = (
    "constexpr int kSmallRowBlockThreads = 128;\n",
    "constexpr int kSmallRowBlockThreads = 32;  // lab CH's b32\n",
)
EDITS = {"b32": [B32]}


if __name__ == "__main__":
    main_with(sys.argv, EDITS, KERNELS)
