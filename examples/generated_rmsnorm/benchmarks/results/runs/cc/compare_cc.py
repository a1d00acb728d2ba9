"""Lab CC's benchmarks side by side (run from runs/cc/; ../compare_builds.py says what its columns
are): each LayerNorm's pfl1 against its base, which ran before and after it, over the cells that are
not host-bound; then the host-bound cells (4096 x 1024, which the lab is about, and 16 x 4096: the
copy takes under 20 us there): each run's device time, base again over base, and pfl1 over the
smaller base.
    python3 compare_cc.py > compare_cc.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_builds import lab_report  # noqa: E402

print(*lab_report(Path(__file__).parent / "cc", ("layer_norm", "fused_add_layer_norm"), "pfl1"), sep="\n")
