"""Lab CA's variants (issue 11; session 59, 2026-12-01) of a rendered norm project (csrc/row_norm/cuda.cuh
of main, c21025b). Lab BZ (runs/bz/compare_bz.txt, one H200, the benchmark without torch.compile,
device time over base's in the same call): `wlast` (the parameters' aligned vectors read with an L2
evict_last policy) took the residual-add LayerNorm's float32 forward at 4096 x 16384 from 320.3 to
289.1 us (89.7% of the copy rate; goal 90) and no other cell beyond 1.002 of base's; `ldcs` (the
residual-add forward's first reads of x and residual in ld.global.cs) to 285.6 (90.2%), but 1.042 of
base's at float32 32768 x 4096, whose rows are loaded first (kLoadsFirst). Here:
`wrr`: wlast, and ld.global.cs only where the residual-add forward reads x and residual element by
       element in float32 and float64 (read_residual_operand: rows not loaded first, such as that
       cell's eight vectors a thread), as whole vectors.
    python3 variant_ca.py PROJECT wrr"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bz"))
from variant_bd import main_with  # noqa: E402
from variant_bz import HELPERS_EDIT, KERNELS, LDCS, WLAST  # noqa: E402

EDITS = {"wrr": [HELPERS_EDIT, *WLAST, LDCS[0]]}


if __name__ == "__main__":
    main_with(sys.argv, EDITS, KERNELS)
