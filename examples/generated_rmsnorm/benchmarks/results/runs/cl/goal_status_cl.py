"""runs/ai/goal_status.py on calls CL's and CLZ's benchmarks (runs/cl/1/, 1b/ and runs/clz/1/; the
landing candidate cl/template_change.diff, which did not land: the runs README's cl/ entry), to set
beside cb/goal_status_cb.txt (the tables'). Run from benchmarks/results:
python3 runs/cl/goal_status_cl.py > runs/cl/goal_status_cl.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ai"))
from goal_status import report_call  # noqa: E402

report_call(
    {
        "rmsnorm": "runs/cl/1",
        "layer_norm": "runs/cl/1b",
        "fused_add_rms_norm": "runs/cl/1",
        "fused_add_layer_norm": "runs/cl/1b",
        "gemma_rms_norm": "runs/clz/1",
        "fused_add_gemma_rms_norm": "runs/clz/1",
    }
)
