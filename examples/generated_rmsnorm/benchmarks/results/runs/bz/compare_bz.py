"""Lab BZ's benchmarks side by side (run from runs/bz/; ../compare_builds.py says what each column is):
each variant of the residual-add LayerNorm against base, which ran first and last.
    python3 compare_bz.py > compare_bz.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_builds import HEADER, report  # noqa: E402

print(HEADER)
bases = ["base", "base_again"]
print(
    *report(
        Path(__file__).parent / "bz",
        "fused_add_layer_norm",
        bases,
        ["base_again", "wlast", "stcs", "ldcs", "all"],
    ),
    sep="\n",
)
