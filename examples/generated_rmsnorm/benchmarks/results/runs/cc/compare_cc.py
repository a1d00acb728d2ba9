"""Lab CC's benchmarks side by side (run from runs/cc/; ../compare_builds.py says what its columns
are): each LayerNorm's pfl1 against its base, which ran before and after it, over the cells that are
not host-bound; then the host-bound cells (4096 x 1024, which the lab is about, and 16 x 4096: the
copy takes under 20 us there): each run's device time, base again over base, and pfl1 over the
smaller base.
    python3 compare_cc.py > compare_cc.txt"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from compare_builds import HEADER, cells, report  # noqa: E402

HERE = Path(__file__).parent / "cc"
PROJECTS = ("layer_norm", "fused_add_layer_norm")
RUNS = ("base", "base_again", "pfl1")
print(HEADER)
for project in PROJECTS:
    stems = [f"{project}_base", f"{project}_base_again"], [f"{project}_base_again", f"{project}_pfl1"]
    print(*report(HERE, project, *stems), sep="\n")
print("\nhost-bound cells, device time in us: base, base again, pfl1; base again over base;")
print("pfl1 over the smaller base")
for project in PROJECTS:
    runs = {b: cells(HERE / f"bench_{project}_{b}.json") for b in RUNS}
    for key, row in runs["pfl1"].items():
        if not row["host_bound"]:
            continue
        us = {b: runs[b][key]["device_ms"]["ours"] * 1000 for b in RUNS}
        times = " ".join(f"{us[b]:7.2f}" for b in RUNS)
        again, ratio = us["base_again"] / us["base"], us["pfl1"] / min(us["base"], us["base_again"])
        shape = f"{key[1][0]}x{key[1][1]}"
        print(f"{project:20} {key[0]:9} {shape:10} {key[2]:17} {times}  {again:.3f} {ratio:.3f}")
