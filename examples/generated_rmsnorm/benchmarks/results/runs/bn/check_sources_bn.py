"""Whether the template renders now the kernel sources that call BN's and call BNZ's benchmarks measured
(their bench_*.json's meta.sources_sha256), norm by norm: run from the repository's root, in its venv,
after `git apply` of template_change.diff and `python -m scaffold render-example`, and before any
device time goes to their suites (a suite of other sources cannot land with them: landing.py).
    python3 examples/generated_rmsnorm/benchmarks/results/runs/bn/check_sources_bn.py
Exit 0 where all six match."""

import json
import sys
from pathlib import Path

RUNS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(RUNS.parents[4]))  # the repository: scaffold
from scaffold import results  # noqa: E402

BENCHES = {
    "rmsnorm": "bn/1/rmsnorm/bench_rms_norm.json",
    "layer_norm": "bn/1/layer_norm/bench_layer_norm.json",
    "fused_add_layer_norm": "bn/1/fused_add_layer_norm/bench_fused_add_layer_norm.json",
    "fused_add_rms_norm": "bn/1b/fused_add_rms_norm/bench_fused_add_rms_norm.json",
    "gemma_rms_norm": "bnz/1/gemma_rms_norm/bench_gemma_rms_norm.json",
    "fused_add_gemma_rms_norm": "bnz/1/fused_add_gemma_rms_norm/bench_fused_add_gemma_rms_norm.json",
}
EXAMPLE_CSRC = RUNS.parents[2] / "csrc"  # the RMSNorm example's, which is rmsnorm's project

failed = False
for name, path in BENCHES.items():
    measured = json.loads((RUNS / path).read_text())["meta"]["sources_sha256"]
    if name == "rmsnorm":
        now = results._digest(results._csrc_files(EXAMPLE_CSRC))
    else:
        now = results._digest(results.norm_csrc(name))
    same = measured == now
    failed = failed or not same
    verdict = "the same" if same else "NOT the same"
    print(f"{name}: {verdict} (measured {measured[:12]}, rendered now {now[:12]})")
sys.exit(1 if failed else 0)
