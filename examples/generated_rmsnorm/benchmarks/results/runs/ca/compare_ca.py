"""Lab CA's benchmarks side by side (run from runs/ca/; ../compare_builds.py says what each column is):
the residual-add LayerNorm's builds against its base, which ran first and last, and LayerNorm's
wlast against its base.
    python3 compare_ca.py > compare_ca.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_builds import HEADER, report  # noqa: E402

HERE = Path(__file__).parent / "ca"
RUNS = {
    "fused_add_layer_norm": (["base", "base_again"], ["base_again", "wlast", "wrr"]),
    "layer_norm": (["base"], ["wlast"]),
}
print(HEADER)
for project, (bases, builds) in RUNS.items():
    stems = [f"{project}_{b}" for b in bases], [f"{project}_{b}" for b in builds]
    print(*report(HERE, project, *stems), sep="\n")
