"""runs/ai/goal_status.py on calls CB's and CBZ's benchmarks (runs/cb/1/, 1b/ and runs/cbz/1/, which
the tables held from their landing at b6b2240 on), the zero-centred norms' included. Run from
benchmarks/results: python3 runs/cb/goal_status_cb.py > runs/cb/goal_status_cb.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ai"))
from goal_status import report_call  # noqa: E402

report_call(
    {
        "rmsnorm": "runs/cb/1b",
        "layer_norm": "runs/cb/1",
        "fused_add_rms_norm": "runs/cb/1b",
        "fused_add_layer_norm": "runs/cb/1",
        "gemma_rms_norm": "runs/cbz/1",
        "fused_add_gemma_rms_norm": "runs/cbz/1",
    }
)
