"""Lab AT's device times and peak memory side by side (at/: the unpacked res_at.tgz): for each norm and
case, keep's forward and forward+backward over the mean of the two base runs (../lab_summary.py), then
the peak memory of one forward+backward (MiB beyond the inputs) of each build, with eager's.
Usage: python3 summary_at.py > summary.txt (in runs/at/: lab AT's at/ and keep); lab AT2's:
python3 summary_at.py at2 keep2 > summary_at2.txt; lab AT3's: python3 summary_at.py at3
probe,a1,a3,a7,a15,blocksum,base_g,probe_g,base_h,probe_h,cs > summary_at3.txt, which adds the time
each step left out took (forward+backward, us; one run each, the steps left out in turn, so each is
timed with the ones before it gone): the grid's sum probe - a1 (with the wait it leaves at the
second barrier), the second barrier a1 - a3, the kept rows' writes a3 - a7, the first barrier
a7 - a15, and a15 - base (the rest: the cooperative launch, the sums written into grad_x and the hot
loop's changes, less the workspace and its sum), with base's two runs' spread as the noise; only
where probe's peak memory is below base's (where keep applies). Lab AT5's: python3 summary_at.py at5
probe3,d,b1,b3,b7,b15 > summary_at5.txt (its steps: STEPS3 below)."""

import json
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import lab_summary  # noqa: E402

folder, variants = sys.argv[1:3] if len(sys.argv) == 3 else ("at", "keep")
lab_summary.main(here / folder, "base", tuple(variants.split(",")))
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
STEPS = (("the grid's sum", "probe", "a1"), ("second barrier", "a1", "a3"), ("kept rows' writes", "a3", "a7"))
STEPS += (("first barrier", "a7", "a15"), ("the rest", "a15", "base"))
# Lab AT5: keep3's steps (probe3: b1 leaves out the block's sum, b3 also the kept rows' writes, b7 also
# the barrier, b15 also the sums' writes), "the rest" (b15 less d: keep3's kernel without its
# epilogue against keep3's blocks on main's workspace and sum) and "fewer blocks" (d less base).
STEPS3 = (("the block's sum", "probe3", "b1"), ("kept rows' writes", "b1", "b3"), ("the barrier", "b3", "b7"))
STEPS3 += (("the sums' writes", "b7", "b15"), ("the rest", "b15", "d"), ("fewer blocks", "d", "base"))
if {"probe3", "b15"} <= set(variants.split(",")):
    STEPS, probe = STEPS3, "probe3"
elif {"probe", "a15"} <= set(variants.split(",")):
    probe = "probe"
else:
    probe = None
if probe:
    runs = lab_summary.load(here / folder, f"res_{folder}.tgz")
    for op, cases in runs.items():
        print(f"== {op}: forward+backward, us, each step's time (one run each; base: the mean of two)")
        for case, r in cases.items():
            fb = {b: t[1] for b, t in r.items()}
            bases = [fb[b] for b in ("base", "base_again") if b in fb]
            applies = peaks.get(op, {}).get(case, {})
            if not bases or probe not in applies or "base" not in applies:
                continue
            if applies[probe]["ours"] >= applies["base"]["ours"]:
                continue  # keep does not apply here: the steps are not run
            fb["base"] = sum(bases) / len(bases)
            if all(b in fb for _, a, c in STEPS for b in (a, c)):
                cells = [f"{name} {fb[a] - fb[b]:+.1f}" for name, a, b in STEPS]
                spread = max(bases) - min(bases)
                print(f"  {case:20} " + ", ".join(cells) + f" (base's spread {spread:.1f})")
