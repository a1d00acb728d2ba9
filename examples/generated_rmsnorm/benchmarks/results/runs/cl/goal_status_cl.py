"""runs/ai/goal_status.py on calls CL's and CLZ's benchmarks (runs/cl/1/, 1b/ and runs/clz/1/; the
landing candidate cl/template_change.diff, which did not land: the runs README's cl/ entry), to set
beside cb/goal_status_cb.txt (the tables'). Run from benchmarks/results:
python3 runs/cl/goal_status_cl.py > runs/cl/goal_status_cl.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ai"))
from goal_status import report  # noqa: E402

report(
    {
        "RMSNorm": "runs/cl/1/rmsnorm/bench_rms_norm.json",
        "LayerNorm": "runs/cl/1b/layer_norm/bench_layer_norm.json",
        "residual-add RMSNorm": "runs/cl/1/fused_add_rms_norm/bench_fused_add_rms_norm.json",
        "residual-add LayerNorm": "runs/cl/1b/fused_add_layer_norm/bench_fused_add_layer_norm.json",
        "zero-centred RMSNorm": "runs/clz/1/gemma_rms_norm/bench_gemma_rms_norm.json",
        "residual-add zero-centred RMSNorm": (
            "runs/clz/1/fused_add_gemma_rms_norm/bench_fused_add_gemma_rms_norm.json"
        ),
    }
)
