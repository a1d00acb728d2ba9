"""runs/ai/goal_status.py on call BN's phase 1 benchmarks (runs/bn/1/, 1b/) and the zero-centred norms'
(runs/bnz/1/) instead of the landed tables, before they land. Run from benchmarks/results:
python3 runs/bn/goal_status_bn.py > runs/bn/goal_status_bn.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ai"))
from goal_status import report_call  # noqa: E402

report_call(
    {
        "rmsnorm": "runs/bn/1",
        "layer_norm": "runs/bn/1",
        "fused_add_rms_norm": "runs/bn/1b",
        "fused_add_layer_norm": "runs/bn/1",
        "gemma_rms_norm": "runs/bnz/1",
        "fused_add_gemma_rms_norm": "runs/bnz/1",
    }
)
