"""Lab AN's device times side by side (an/: the unpacked res_an.tgz): for each norm and case, the
forward and forward+backward of each build (am, an, an2) over the mean of the two base runs, with the
backward too; then the Nsight Compute lines of the three LayerNorm runs (../lab_summary.py, which this
script wrote out whole when the lab ran). Usage: python3 summary_an.py > summary.txt (in runs/an/)."""

import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import lab_summary  # noqa: E402

lab_summary.main(here / "an", "base", ("am", "an", "an2"), ("base", "an", "an2"))
