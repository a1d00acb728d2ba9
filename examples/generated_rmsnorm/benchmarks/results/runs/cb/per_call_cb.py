"""Calls CB's and CBZ's per-call times (host launch included) against the tables they replaced
(calls BN's and BNZ's, at a5ddd19), in the six norms' cells: how many came out more than 10% above,
and how our device times moved in those. Run from benchmarks/results: python3 runs/cb/per_call_cb.py
(its output: runs/cb/per_call_cb.txt)."""

import sys
from pathlib import Path

RUNS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(RUNS))
sys.path.insert(0, str(RUNS / "bn"))
from norm_tables import FILES  # noqa: E402
from per_call_bn import compare  # noqa: E402

ZERO_CENTRED = {
    "zero-centred RMSNorm": "norms/gemma_rms_norm/bench_gemma_rms_norm.json",
    "residual-add zero-centred RMSNorm": "norms/fused_add_gemma_rms_norm/bench_fused_add_gemma_rms_norm.json",
}
AFTER = "b6b2240"  # the commit that landed calls CB and CBZ
compare("a5ddd19", AFTER, "BN/BNZ", {**FILES, **ZERO_CENTRED})
