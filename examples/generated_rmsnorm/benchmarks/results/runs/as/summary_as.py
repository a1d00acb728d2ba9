"""Lab AS's device times side by side (as/: the unpacked res_as.tgz): for each norm and case, the
forward and forward+backward of pr, tp and prtp over the mean of the two base runs (base, then base
again after the variants; the residual-add LayerNorm has prtp alone), with the backward too
(../lab_summary.py). Usage: python3 summary_as.py > summary.txt (in runs/as/)."""

import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import lab_summary  # noqa: E402

lab_summary.main(here / "as", "base", ("pr", "tp", "prtp"))
