"""runs/ai/goal_status.py on the six norms' landed tables (calls CB and CBZ), the zero-centred norms'
included. Run from benchmarks/results: python3 runs/cb/goal_status_cb.py > runs/cb/goal_status_cb.txt"""

import runpy
import sys
from pathlib import Path

RUNS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(RUNS))
import norm_tables  # noqa: E402

norm_tables.FILES = {
    **norm_tables.FILES,
    "zero-centred RMSNorm": "norms/gemma_rms_norm/bench_gemma_rms_norm.json",
    "residual-add zero-centred RMSNorm": "norms/fused_add_gemma_rms_norm/bench_fused_add_gemma_rms_norm.json",
}
runpy.run_path(str(RUNS / "ai" / "goal_status.py"), run_name="__main__")
