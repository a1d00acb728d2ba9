"""Lab BE's device times side by side (be/be: the unpacked res_be.tgz): for each norm and case, the
forward and forward+backward of each variant over the mean of the two base runs (base, then base
again after them), with the backward too (../lab_summary.py). Usage, in runs/:
python3 be/summary_be.py > be/summary_be.txt"""

import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import lab_summary  # noqa: E402

lab_summary.main(here / "be", "base", ("rule2", "noprefetch", "latesum", "warpplain", "small32"))
