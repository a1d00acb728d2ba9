"""Lab CI's benchmarks side by side (run from runs/ci/; ../compare_builds.py says what its columns
are): each project's wr against its base, which ran before and after it, over the cells that are not
host-bound; then the host-bound cells (4096 x 1024, which the lab is about, and 16 x 4096). The
residual-add LayerNorm ran last: lab_report names a project whose three benchmarks did not all
finish and leaves it out.
    python3 compare_ci.py > compare_ci.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_builds import lab_report  # noqa: E402

projects = ("layer_norm", "rmsnorm", "fused_add_layer_norm")
print(*lab_report(Path(__file__).parent / "ci", projects, "wr"), sep="\n")
