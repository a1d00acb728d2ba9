"""Call AV's tables against call AP's, cell by cell: our device time (and peak memory) in the records
call AV landed (benchmarks/results/, as the working tree has them) over those at commit 1d8a082
(call AP's, the last before the landing). Run from benchmarks/results: python3 runs/av/compare_av.py
[COMMIT] (a later landing's tables against those at COMMIT, such as 419b51d, call AV's)."""

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from norm_tables import FILES  # noqa: E402

BEFORE = sys.argv[1] if len(sys.argv) > 1 else "1d8a082"


def cells(bench):
    return {(r["dtype"], tuple(r["shape"]), r["pass"]): r for r in bench["results"]}


for name, path in FILES.items():
    now = cells(json.load(open(path)))
    then = cells(json.loads(subprocess.check_output(["git", "show", f"{BEFORE}:./{path}"])))
    print(f"== {name}: our device time, now over {BEFORE}'s (forward / forward+backward);")
    print(f"   peak MiB ours, now ({BEFORE}) / eager")
    for dtype, shape, p in now:
        if p != "forward":
            continue
        fwd = now[dtype, shape, p]["device_ms"]["ours"] / then[dtype, shape, p]["device_ms"]["ours"]
        b_now, b_then = now[dtype, shape, "forward+backward"], then[dtype, shape, "forward+backward"]
        both = b_now["device_ms"]["ours"] / b_then["device_ms"]["ours"]
        peak = b_now.get("peak_mib") or {}
        peak_then = b_then.get("peak_mib") or {}
        memory = f"{peak.get('ours')} ({peak_then.get('ours')}) / {peak.get('eager')}" if peak else "-"
        print(f"  {dtype:9} {shape[0]}x{shape[1]:<7} {fwd:.3f} / {both:.3f}   {memory}")
