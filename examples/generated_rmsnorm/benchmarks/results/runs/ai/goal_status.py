"""Where the four norms' benchmark tables (the records in benchmarks/results/ that the README's tables
show) stand against issue 11's goals: forward at least 90% and forward+backward at least 85% of the
copy rate at 32768 x 4096, 8192 x 8192 and 4096 x 16384, at least 80% both ways at 1024 x 65536; no
peer faster (any smaller device time; the ratio printed to two decimals, x1.00 where under 0.5%) at
those shapes and at 4096 x 1024; peak memory no more than eager's in the
forward+backward. Run from benchmarks/results: python3 runs/ai/goal_status.py (its output after call
AI: runs/ai/goal_status.txt); `report` serves the records of a call before or apart from its landing
(bn/goal_status_bn.py, cb/goal_status_cb.py, cl/goal_status_cl.py: `report_call` names their six
records by the phase folders that hold them)."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from norm_tables import FILES  # noqa: E402

BIG = [(32768, 4096), (8192, 8192), (4096, 16384)]
PASSES = {"forward": "fwd", "forward+backward": "fwd+bwd"}


def report(files: dict[str, str]) -> None:
    """For each norm of `files` (name: its benchmark record, from benchmarks/results), the goal cells
    missed, the cells where a peer is faster, and the forward+backward cells above eager's peak memory."""
    for name, path in files.items():
        bench = json.load(open(path))
        missed, slower, above, cells = [], [], 0, 0
        for r in bench["results"]:
            shape, p, pct = tuple(r["shape"]), PASSES[r["pass"]], r["pct_of_copy"]["ours"]
            goal = (90 if p == "fwd" else 85) if shape in BIG else (80 if shape == (1024, 65536) else None)
            if goal and pct < goal:
                missed.append(f"{r['dtype']} {shape[0]}x{shape[1]} {p} {pct:.1f}")
            if shape in [*BIG, (1024, 65536), (4096, 1024)]:
                ours = r["device_ms"]["ours"]
                for peer, ms in r["device_ms"].items():
                    if peer != "ours" and ms and ms < ours:
                        slower.append(f"{peer} {r['dtype']} {shape[0]}x{shape[1]} {p} x{ours / ms:.2f}")
            if p == "fwd+bwd" and r.get("peak_mib"):
                cells += 1
                above += r["peak_mib"]["ours"] > r["peak_mib"]["eager"]
        when = bench["meta"]["date"][:16]
        print(f"== {name} (benchmarked {when} UTC): {len(missed)} goal cells missed: {'; '.join(missed)}")
        print(f"   a peer faster in device time at the issue's shapes ({len(slower)}): {'; '.join(slower)}")
        print(f"   peak memory above eager's in {above} of {cells} forward+backward cells")


# The six norms of call_ap.sh and call_bi.sh: their names in a report, projects and benchmark files.
SIX_NORMS = {
    "RMSNorm": ("rmsnorm", "bench_rms_norm.json"),
    "LayerNorm": ("layer_norm", "bench_layer_norm.json"),
    "residual-add RMSNorm": ("fused_add_rms_norm", "bench_fused_add_rms_norm.json"),
    "residual-add LayerNorm": ("fused_add_layer_norm", "bench_fused_add_layer_norm.json"),
    "zero-centred RMSNorm": ("gemma_rms_norm", "bench_gemma_rms_norm.json"),
    "residual-add zero-centred RMSNorm": ("fused_add_gemma_rms_norm", "bench_fused_add_gemma_rms_norm.json"),
}


def report_call(folders: dict[str, str]) -> None:
    """`report` on a call's phase-1 records: folders maps each project of SIX_NORMS to the phase folder
    (from benchmarks/results) whose PROJECT/ holds its benchmark."""
    report({name: f"{folders[project]}/{project}/{file}" for name, (project, file) in SIX_NORMS.items()})


if __name__ == "__main__":
    report(FILES)
