"""Lab CG's benchmarks side by side (run from runs/cg/; ../compare_builds.py says what its columns
are): LayerNorm's wsum against its base, which ran before and after it, over the cells that are not
host-bound; then the host-bound cells (4096 x 1024, which the lab is about, and 16 x 4096).
    python3 compare_cg.py > compare_cg.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_builds import lab_report  # noqa: E402

print(*lab_report(Path(__file__).parent / "cg", ("layer_norm",), "wsum"), sep="\n")
