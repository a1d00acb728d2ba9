"""Lab CI's benchmarks side by side (run from runs/ci/; ../compare_builds.py says what its columns
are): each project's wr against its base, which ran before and after it, over the cells that are not
host-bound; then the host-bound cells (4096 x 1024, which the lab is about, and 16 x 4096). The
residual-add LayerNorm ran last: a project whose three benchmarks did not all finish is named and
left out.
    python3 compare_ci.py > compare_ci.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_builds import lab_report  # noqa: E402

folder = Path(__file__).parent / "ci"
projects = []
for project in ("layer_norm", "rmsnorm", "fused_add_layer_norm"):
    runs = [folder / f"bench_{project}_{b}.json" for b in ("base", "wr", "base_again")]
    if all(r.exists() for r in runs):
        projects.append(project)
    else:
        print(f"{project}: left out, its benchmarks did not all finish")
print(*lab_report(folder, tuple(projects), "wr"), sep="\n")
