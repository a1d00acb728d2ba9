"""Lab AM's device times side by side (am/: the unpacked res_am.tgz): for each norm and case, the
forward and forward+backward of each build (am, am3) over the mean of the two base runs, with the
backward too; then the Nsight Compute lines of the two LayerNorm runs (../lab_summary.py, which this
script wrote out whole when the lab ran). Usage: python3 summary_am.py > summary.txt (in runs/am/)."""

import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import lab_summary  # noqa: E402

lab_summary.main(here / "am", "base", ("am", "am3"), ("base", "am"))
