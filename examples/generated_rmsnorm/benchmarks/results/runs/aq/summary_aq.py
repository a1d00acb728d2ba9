"""Lab AQ's device times side by side (aq/: the unpacked res_aq.tgz): for each norm and case, the
forward and forward+backward of bulk over the mean of the two an2 runs (an2, then an2 again after
bulk), with the backward too (../lab_summary.py). Usage: python3 summary_aq.py > summary.txt (in
runs/aq/)."""

import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import lab_summary  # noqa: E402

lab_summary.main(here / "aq", "an2", ("bulk",))
