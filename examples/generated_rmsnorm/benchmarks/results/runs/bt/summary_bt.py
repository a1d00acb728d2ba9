"""Lab BT's summary (prepared in session 57, 2026-12-01): the residual-add LayerNorm's float32 device
time (us) of base and eightb at 4096 x 16384 and 8192 x 8192, forward / forward+backward, by each
method of lab_bt.sh and round, side by side; then GPU 0's clocks, power and temperature during each
step (clocks.csv's samples between the step's start and end in steps.txt).
    python3 bt/summary_bt.py bt/bt > bt/summary_bt.txt   (from runs/)"""

import csv
import json
import statistics
import sys
from datetime import datetime, timezone
from pathlib import Path

BUILDS = ("base", "eightb")
SHAPES = ("4096x16384", "8192x8192")
METHODS = (  # (file tag without the round, what it is)
    ("plain", "benchmark, ours, eager and the copy"),
    ("lab", "e_time.py as the labs run it"),
    ("normal", "e_time.py, the benchmark's replays and budget"),
    ("forward", "e_time.py, a forward discarded first"),
    ("none", "e_time.py, nothing discarded first"),
    ("bench", "e_time.py, the benchmark's steps first"),
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
    rows = json.loads(path.read_text())
    return {row["case"].split()[1]: (row["forward"], row["forward+backward"]) for row in rows}


def cell(times: dict[str, tuple[float, float]] | None, shape: str) -> str:
    if times is None or shape not in times:
        return "-".center(15)
    forward, both = times[shape]
    return f"{forward:6.1f} / {both:6.1f}"


def times_table(folder: Path) -> None:
    for shape in SHAPES:
        print(f"\n== {shape}")
        print(f"{'method':46} {'round':>5}  " + "  ".join(f"{b:^15}" for b in BUILDS))
        for tag, what in METHODS:
            for round_ in (1, 2):
                cells = []
                for build in BUILDS:
                    path = folder / f"{'bench' if tag == 'plain' else 'time'}_{build}_{tag}{round_}.json"
                    read = bench_times if tag == "plain" else lab_times
                    cells.append(cell(read(path) if path.exists() else None, shape))
                print(f"{what:46} {round_:>5}  " + "  ".join(cells))
        cells = []
        for build in BUILDS:
            path = folder / f"bench_{build}_tables.json"
            cells.append(cell(bench_times(path) if path.exists() else None, shape))
        print(f"{'benchmark as the tables run it':46} {3:>5}  " + "  ".join(cells))


def number(text: str) -> float | None:
    try:
        return float(text.split()[0])
    except (IndexError, ValueError):
        return None


def clocks_by_step(folder: Path) -> None:
    """Median SM and memory clocks and power, the largest temperature, and the event reasons seen,
    over the samples within each step."""
    clocks, steps = folder / "clocks.csv", folder / "steps.txt"
    if not (clocks.exists() and steps.exists()):
        return
    samples = []
    for row in csv.reader(clocks.open()):
        if len(row) < 6 or row[0].startswith("timestamp"):
            continue
        try:
            when = datetime.strptime(row[0].strip(), "%Y/%m/%d %H:%M:%S.%f").replace(tzinfo=timezone.utc)
        except ValueError:
            continue
        samples.append((when.timestamp(), *(number(v) for v in row[1:5]), row[5].strip()))
    starts: dict[str, float] = {}
    print("\n== GPU 0 during each step (median SM MHz, memory MHz, W; largest C; event reasons)")
    for line in steps.read_text().splitlines():
        kind, *name, stamp = line.split()
        step = " ".join(name)
        if kind == "start":
            starts[step] = float(stamp)
            continue
        inside = [s for s in samples if starts.get(step, float("inf")) <= s[0] <= float(stamp)]
        if not inside:
            print(f"{step:28} no samples")
            continue
        columns = [[s[k] for s in inside if s[k] is not None] for k in (1, 2, 3)]
        medians = [statistics.median(column) if column else float("nan") for column in columns]
        hottest = max((s[4] for s in inside if s[4] is not None), default=float("nan"))
        reasons = ",".join(sorted({s[5] for s in inside}))
        print(f"{step:28} {medians[0]:6.0f} {medians[1]:6.0f} {medians[2]:6.0f} {hottest:4.0f}  {reasons}")


def main(folder: Path) -> None:
    print("Lab BT: the residual-add LayerNorm, float32, device time us, forward / forward+backward")
    times_table(folder)
    clocks_by_step(folder)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
