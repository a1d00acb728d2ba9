"""Lab BC's device times side by side (bc/bc: the unpacked res_bc.tgz): for each residual-add norm and
case, the forward and forward+backward of loads and loads4 over the mean of the two base runs (base,
then base again after them), with the backward too (../lab_summary.py). Usage, in runs/:
python3 bc/summary_bc.py > bc/summary_bc.txt"""

import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import lab_summary  # noqa: E402

lab_summary.main(here / "bc", "base", ("loads", "loads4"))
