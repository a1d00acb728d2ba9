"""Lab CC's benchmarks side by side (run from runs/cc/; ../compare_builds.py says what its columns
are): each LayerNorm's pf4 and pfl1 against its base, which ran before and after it, over the cells that are
not host-bound; then the cells at 4096 x 1024, which the benchmark counts as host-bound (the copy
takes under 20 us) and the lab is about: each build's device time, and pf4's and pfl1's over the smaller base.
    python3 compare_cc.py > compare_cc.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_builds import HEADER, cells, report  # noqa: E402

HERE = Path(__file__).parent / "cc"
PROJECTS = ("layer_norm", "fused_add_layer_norm")
BASES, BUILDS = ["base", "base_again"], ["base_again", "pf4", "pfl1"]
print(HEADER)
for project in PROJECTS:
    stems = [f"{project}_{b}" for b in BASES], [f"{project}_{b}" for b in BUILDS]
    print(*report(HERE, project, *stems), sep="\n")
print("\nat 4096 x 1024, device time in us: base, base again, pf4, pfl1; pf4 and pfl1 over the smaller base")
for project in PROJECTS:
    runs = {b: cells(HERE / f"bench_{project}_{b}.json") for b in ("base", "base_again", "pf4", "pfl1")}
    for key in runs["pf4"]:
        if key[1] != (4096, 1024):
            continue
        us = {b: runs[b][key]["device_ms"]["ours"] * 1000 for b in runs}
        base = min(us["base"], us["base_again"])
        times = " ".join(f"{us[b]:7.2f}" for b in runs)
        print(f"{project:20} {key[0]:9} {key[2]:17} {times}  {us['pf4'] / base:.3f} {us['pfl1'] / base:.3f}")
