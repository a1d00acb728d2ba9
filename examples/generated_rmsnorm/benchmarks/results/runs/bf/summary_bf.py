"""Lab BF's device times side by side (bf/bf: the unpacked res_bf.tgz): for each norm and case, the
forward and forward+backward of two over the mean of the two base runs (base, then base
again after them), with the backward too (../lab_summary.py). Usage, in runs/:
python3 bf/summary_bf.py > bf/summary_bf.txt"""

import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import lab_summary  # noqa: E402

lab_summary.main(here / "bf", "base", ("two",))
