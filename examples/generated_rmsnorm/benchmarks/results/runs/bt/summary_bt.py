"""Lab BT's summary (prepared in session 57, 2026-12-01): the residual-add LayerNorm's float32 device
time (us) of base and eightb at 4096 x 16384 and 8192 x 8192, forward / forward+backward, by each
method of lab_bt.sh and round, side by side, and the GPU's clocks over the call (clocks.csv).
    python3 bt/summary_bt.py bt/bt > bt/summary_bt.txt   (from runs/)"""

import csv
import json
import statistics
import sys
from pathlib import Path

BUILDS = ("base", "eightb")
SHAPES = ("4096x16384", "8192x8192")
METHODS = (  # (file tag without the round, what it is)
    ("plain", "benchmark, ours, eager and the copy"),
    ("lab", "e_time.py as the labs run it"),
    ("normal", "e_time.py, the benchmark's warm-ups and repeats"),
    ("forward", "e_time.py, a forward discarded first"),
    ("none", "e_time.py, nothing discarded first"),
)


def bench_times(path: Path) -> dict[str, tuple[float, float]]:
    """Shape -> (forward, forward+backward) device us of ours in a benchmark's JSON."""
    times: dict[str, dict[str, float]] = {}
    for row in json.loads(path.read_text())["results"]:
        shape = "x".join(str(d) for d in row["shape"])
        times.setdefault(shape, {})[row["pass"]] = row["device_ms"]["ours"] * 1000
    return {shape: (t["forward"], t["forward+backward"]) for shape, t in times.items()}


def lab_times(path: Path) -> dict[str, tuple[float, float]]:
    """Shape -> (forward, forward+backward) us in an e_time.py JSON."""
    return {
        row["case"].split()[1]: (row["forward"], row["forward+backward"])
        for row in json.loads(path.read_text())
    }


def cell(times: dict[str, tuple[float, float]] | None, shape: str) -> str:
    if times is None or shape not in times:
        return "-".center(15)
    forward, both = times[shape]
    return f"{forward:6.1f} / {both:6.1f}"


def main(folder: Path) -> None:
    print("Lab BT: the residual-add LayerNorm, float32, device time us, forward / forward+backward")
    for shape in SHAPES:
        print(f"\n== {shape}")
        print(f"{'method':50} {'round':>5}  " + "  ".join(f"{b:^15}" for b in BUILDS))
        for tag, what in METHODS:
            for round_ in (1, 2):
                cells = []
                for build in BUILDS:
                    path = folder / f"{'bench' if tag == 'plain' else 'time'}_{build}_{tag}{round_}.json"
                    read = bench_times if tag == "plain" else lab_times
                    cells.append(cell(read(path) if path.exists() else None, shape))
                print(f"{what:50} {round_:>5}  " + "  ".join(cells))
        cells = []
        for build in BUILDS:
            path = folder / f"bench_{build}_tables.json"
            cells.append(cell(bench_times(path) if path.exists() else None, shape))
        print(f"{'benchmark as the tables run it':50} {3:>5}  " + "  ".join(cells))
    clocks = folder / "clocks.csv"
    if clocks.exists():
        rows = [r for r in csv.reader(clocks.open()) if r and not r[0].startswith("timestamp")]
        print(f"\n== clocks.csv: {len(rows)} samples")
        for i, name in ((1, "SM clock"), (2, "memory clock"), (3, "power"), (4, "temperature")):
            values = []
            for r in rows:
                try:
                    values.append(float(r[i].split()[0]))
                except (IndexError, ValueError):
                    pass
            if values:
                middle = statistics.median(values)
                print(f"{name:13} min {min(values):8.1f}  median {middle:8.1f}  max {max(values):8.1f}")
        reasons = sorted({r[5].strip() for r in rows if len(r) > 5})
        print("event reasons seen:", ", ".join(reasons) or "-")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
