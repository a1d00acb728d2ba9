"""Lab AR's summary: for each project, dtype and shape, the device time of forward and
forward+backward (us) of base, pf, base again and pf again, and pf's mean over base's mean.
Run in runs/ar/: python3 summary_ar.py > summary.txt"""

import json
from pathlib import Path

here = Path(__file__).resolve().parent / "ar"
runs = ["base", "pf", "base_again", "pf_again"]
for project in ("layer_norm", "rmsnorm"):
    times: dict[tuple[str, str], dict[str, float]] = {}
    for run in runs:
        for tag in ("16bit", "float32"):
            path = here / f"time_{project}_{run}_{tag}.json"
            if not path.exists():
                continue
            for row in json.loads(path.read_text()):
                for pass_name in ("forward", "forward+backward"):
                    times.setdefault((row["case"], pass_name), {})[run] = row[pass_name]
    print(f"== {project}: device time (us) base / pf / base again / pf again, and pf over base (means)")
    for (case, pass_name), t in times.items():
        if len(t) < 4:
            print(f"{case:22} {pass_name:17} incomplete: {t}")
            continue
        ratio = (t["pf"] + t["pf_again"]) / (t["base"] + t["base_again"])
        cells = " / ".join(f"{t[r]:8.2f}" for r in runs)
        print(f"{case:22} {pass_name:17} {cells}   {ratio:.3f}")
