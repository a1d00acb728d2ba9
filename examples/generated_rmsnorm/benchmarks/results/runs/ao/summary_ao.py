"""Lab AO's device times side by side (ao/: the unpacked res_ao.tgz): for each norm and case, the
forward and forward+backward of db over the mean of the two an2 runs (an2, then an2 again after db),
with the backward too (../lab_summary.py, which this script wrote out whole when the lab ran).
Usage: python3 summary_ao.py > summary.txt (in runs/ao/)."""

import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import lab_summary  # noqa: E402

lab_summary.main(here / "ao", "an2", ("db",))
