"""Lab CG's benchmarks side by side (run from runs/cg/; ../compare_builds.py says what its columns
are): LayerNorm's wsum against its base, which ran before and after it, over the cells that are not
host-bound; then the host-bound cells (4096 x 1024, which the lab is about, and 16 x 4096).
    python3 compare_cf.py > compare_cf.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_builds import HEADER, host_bound_report, report  # noqa: E402

HERE = Path(__file__).parent / "cg"
PROJECTS = ("layer_norm",)
print(HEADER)
for project in PROJECTS:
    stems = [f"{project}_base", f"{project}_base_again"], [f"{project}_base_again", f"{project}_wsum"]
    print(*report(HERE, project, *stems), sep="\n")
print(*host_bound_report(HERE, PROJECTS, "wsum"), sep="\n")
