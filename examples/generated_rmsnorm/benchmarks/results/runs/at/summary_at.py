"""Lab AT's device times and peak memory side by side (at/: the unpacked res_at.tgz): for each norm and
case, keep's forward and forward+backward over the mean of the two base runs (../lab_summary.py), then
the peak memory of one forward+backward (MiB beyond the inputs) of each build, with eager's.
Usage: python3 summary_at.py > summary.txt (in runs/at/: lab AT's at/ and keep); lab AT2's:
python3 summary_at.py at2 keep2 > summary_at2.txt."""

import json
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import lab_summary  # noqa: E402

folder, variant = sys.argv[1:3] if len(sys.argv) == 3 else ("at", "keep")
lab_summary.main(here / folder, "base", (variant,))
peaks: dict = {}
for path in sorted((here / folder).glob("time_*.json")):
    for row in json.loads(path.read_text()):
        if "peak_mib" in row:
            peaks.setdefault(row["op"], {}).setdefault(row["case"], {})[row["build"]] = row["peak_mib"]
for op, cases in peaks.items():
    print(f"== {op}: peak MiB of one forward+backward beyond its inputs, ours (eager)")
    for case, builds in cases.items():
        cells = [f"{b} {p['ours']:.2f} ({p['eager']:.2f})" for b, p in builds.items()]
        print(f"  {case:20} " + "; ".join(cells))
