"""Call BH's phase 1 benchmarks (runs/bh/1/, the change of runs/bg/template_change.diff) against the
tables of call BB (the records at commit f63f57d), cell by cell: our device time over the table's,
forward and forward+backward, our % of the copy rate, and where a peer was faster in the same run.
Run from benchmarks/results: python3 runs/bh/compare_bh1.py [PHASE_FOLDER CALL] (from session 52 on,
another call's phase 1 folder, such as runs/bh2/1 BH2; by default runs/bh/1, call BH). Until session
52 it read call BB's tables from the working tree, which held them until call BH2 landed. From
session 53 on, a third argument names another commit whose tables to compare with (call BL's phase 1
against call BH2's tables: runs/bl/1 BL 6e2e55f; the header then names that commit). It skips the
norms that the phase folder has no benchmark of, and takes the zero-centred norms' too (call BM)."""

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from norm_tables import FILES  # noqa: E402

FILES = {
    **FILES,
    "zero-centred RMSNorm": "norms/gemma_rms_norm/bench_gemma_rms_norm.json",
    "residual-add zero-centred RMSNorm": "norms/fused_add_gemma_rms_norm/bench_fused_add_gemma_rms_norm.json",
}

PHASE = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "1"
CALL = sys.argv[2] if len(sys.argv) > 2 else "BH"
TABLES_COMMIT = sys.argv[3] if len(sys.argv) > 3 else "f63f57d"  # the tables compared with (call BB's)
TABLES = f"at {TABLES_COMMIT}" if len(sys.argv) > 3 else "call BB's"
PROJECT = {
    "RMSNorm": "rmsnorm",
    "LayerNorm": "layer_norm",
    "residual-add RMSNorm": "fused_add_rms_norm",
    "residual-add LayerNorm": "fused_add_layer_norm",
    "zero-centred RMSNorm": "gemma_rms_norm",
    "residual-add zero-centred RMSNorm": "fused_add_gemma_rms_norm",
}


def cells(bench):
    return {(r["dtype"], tuple(r["shape"]), r["pass"]): r for r in bench["results"]}


for name, path in FILES.items():
    if not (PHASE / PROJECT[name]).is_dir():  # (a call that benchmarked some of the norms: call BM)
        continue
    then = cells(json.loads(subprocess.check_output(["git", "show", f"{TABLES_COMMIT}:./{path}"])))
    now = cells(json.load(open(PHASE / PROJECT[name] / Path(path).name)))
    print(
        f"== {name}: ours in call {CALL} over the table's ({TABLES}), forward / forward+backward; "
        "% of copy forward / forward+backward; peers faster (device time)"
    )
    for dtype, shape, p in now:
        if p != "forward":
            continue
        row = []
        for q in ("forward", "forward+backward"):
            a, b = now[dtype, shape, q], then[dtype, shape, q]
            row.append(
                (
                    a["device_ms"]["ours"] / b["device_ms"]["ours"],
                    a["pct_of_copy"].get("ours"),
                    [
                        f"{k} x{a['device_ms']['ours'] / v:.2f} {q[:3] if q == 'forward' else 'f+b'}"
                        for k, v in a["device_ms"].items()
                        if k != "ours" and v and v < a["device_ms"]["ours"]
                    ],
                )
            )
        pct = " / ".join("-" if r[1] is None else f"{r[1]:.1f}" for r in row)
        print(
            f"  {dtype:9} {shape[0]}x{shape[1]:<7} {row[0][0]:.3f} / {row[1][0]:.3f}   {pct:13}  "
            + "; ".join(row[0][2] + row[1][2])
        )
