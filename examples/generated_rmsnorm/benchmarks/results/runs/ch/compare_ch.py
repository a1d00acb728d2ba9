"""Lab CH's benchmarks side by side (run from runs/ch/; ../compare_builds.py says what its columns
are): LayerNorm's and RMSNorm's b32 against their base, which ran before and after it, over the
cells that are not host-bound; then the host-bound cells (4096 x 1024, which the lab is about, and
16 x 4096).
    python3 compare_ch.py > compare_ch.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_builds import lab_report  # noqa: E402

print(*lab_report(Path(__file__).parent / "ch", ("layer_norm", "rmsnorm"), "b32"), sep="\n")
