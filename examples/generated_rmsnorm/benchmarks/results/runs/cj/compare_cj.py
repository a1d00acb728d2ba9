"""Lab CJ's benchmarks side by side (run from runs/cj/; ../compare_builds.py says what its columns
are): LayerNorm's wr2 and wr2b, and the residual-add RMSNorm's wr2, each against its base, which ran
before and after them, over the cells that are not host-bound; then the host-bound cells (4096 x
1024, which the lab is about, and 16 x 4096). lab_report names a project whose benchmarks did not
all finish and leaves it out.
    python3 compare_cj.py > compare_cj.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_builds import lab_report  # noqa: E402

for project, variant in (("layer_norm", "wr2"), ("layer_norm", "wr2b"), ("fused_add_rms_norm", "wr2")):
    print(*lab_report(Path(__file__).parent / "cj", (project,), variant), sep="\n")
    print()
