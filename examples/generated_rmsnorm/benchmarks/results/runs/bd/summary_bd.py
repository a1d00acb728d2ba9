"""Lab BD's device times side by side (bd/bd: the unpacked res_bd.tgz): for each residual-add norm and
case, the forward and forward+backward of rule and eight over the mean of the two base runs (base,
then base again after them), with the backward too (../lab_summary.py). Usage, in runs/:
python3 bd/summary_bd.py > bd/summary_bd.txt"""

import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import lab_summary  # noqa: E402

lab_summary.main(here / "bd", "base", ("rule", "eight"))
