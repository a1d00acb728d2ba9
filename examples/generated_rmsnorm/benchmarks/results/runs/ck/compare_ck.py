"""Lab CK's benchmarks side by side (run from runs/ck/; ../compare_builds.py says what its columns
are): LayerNorm's wr3 against its base, which ran before and after it.
    python3 compare_ck.py > compare_ck.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_builds import lab_report  # noqa: E402

print(*lab_report(Path(__file__).parent / "ck", ("layer_norm",), "wr3"), sep="\n")
