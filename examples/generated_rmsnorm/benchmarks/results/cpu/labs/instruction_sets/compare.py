"""The LayerNorm project's CPU loops built for AVX2 and for AVX512 (lab instruction_sets.sh): per cell,
eager's time over ours in each run of each build, and the median of ours' AVX512 times over the median
of its AVX2 times. Usage: python3 compare.py (in this folder); output: compare.txt."""

import json
import statistics
from pathlib import Path

HERE = Path(__file__).parent


def runs(build: str) -> list[dict]:
    return [json.loads(path.read_text())["results"] for path in sorted(HERE.glob(f"{build}_bench_*.json"))]


def cell(row: dict) -> tuple:
    return row["dtype"], tuple(row["shape"]), row["pass"], row["threads"]


builds = {build: runs(build) for build in ("avx2", "avx512")}
print("cell | eager over ours, AVX2 runs | eager over ours, AVX512 runs | ours AVX512 / AVX2 (medians)")
ratios = []
for index, first in enumerate(builds["avx2"][0]):
    rows = {build: [run[index] for run in found] for build, found in builds.items()}
    assert all(cell(row) == cell(first) for found in rows.values() for row in found)
    speedups = {b: " ".join(f"{row['speedup_vs_eager']:.2f}" for row in found) for b, found in rows.items()}
    ratio = statistics.median(r["ms"]["ours"] for r in rows["avx512"]) / statistics.median(
        r["ms"]["ours"] for r in rows["avx2"]
    )
    ratios.append((ratio, cell(first)))
    dtype, (m, n), kind, threads = cell(first)
    print(f"{dtype} {m}x{n} {kind} {threads}t | {speedups['avx2']} | {speedups['avx512']} | {ratio:.2f}")
for build, found in builds.items():
    slower = [sum(row["speedup_vs_eager"] < 1 for row in run) for run in found]
    print(f"{build}: cells slower than eager, run by run: {slower} of {len(found[0])}")
ratios.sort()
print(f"ours AVX512 / AVX2: {ratios[0][0]:.2f} ({ratios[0][1]}) to {ratios[-1][0]:.2f} ({ratios[-1][1]})")
