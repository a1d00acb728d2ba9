"""What the summaries of labs AM, AN and AO share (each was first written out whole): the device times
that ../e/e_time.py wrote (time_*.json in a lab's unpacked folder), side by side for each norm and case,
each build's forward and forward+backward over the mean of two reference runs (the reference, then the
reference again after the variants, `REF_again`; the reference alone, flagged, where the second is
missing), with the backward (forward+backward less forward) too; and the Nsight Compute lines of the
backward kernel from ncu_layer_norm_RUN.txt files.
Usage: lab_summary.main(folder, reference, variants, ncu_runs) from a lab's summary script, or (labs BC
to BF, without a script of their own), in runs/: python3 lab_summary.py FOLDER REFERENCE VARIANT...,
e.g. `python3 lab_summary.py bd/bd base rule eight > bd/summary_bd.txt`."""

import csv
import json
import sys
from pathlib import Path


def load(folder: Path, archive: str) -> dict:
    """op -> case -> build -> (forward, forward+backward), from folder's time_*.json."""
    paths = sorted(folder.glob("time_*.json"))
    if not paths:
        sys.exit(f"no time_*.json in {folder}: tar xzf {archive} -C {folder.name} --strip-components=1")
    runs = {}
    for path in paths:
        for row in json.loads(path.read_text()):
            times = (row["forward"], row["forward+backward"])
            runs.setdefault(row["op"], {}).setdefault(row["case"], {})[row["build"]] = times
    return runs


def print_times(runs: dict, reference: str, variants: tuple[str, ...]) -> None:
    refs = (reference, f"{reference}_again")
    for op, cases in runs.items():
        print(f"== {op}: device time, us (forward / forward+backward);")
        print(f"   over {reference}'s mean: forward, forward+backward, backward")
        for case, r in cases.items():
            bases = [r[b] for b in refs if b in r]
            if not bases:
                print(f"  {case:20} no {reference} run: {sorted(r)}")
                continue
            f0 = sum(b[0] for b in bases) / len(bases)
            fb0 = sum(b[1] for b in bases) / len(bases)
            bwd0 = fb0 - f0
            cells = [", ".join(f"{b} {r[b][0]:.1f} / {r[b][1]:.1f}" for b in refs if b in r)]
            if len(bases) == 1:
                cells[0] += f" (one {reference} run only)"
            for v in variants:
                if v in r:
                    f, fb = r[v]
                    ratios = f"{f / f0:.3f}, {fb / fb0:.3f}, bwd {(fb - f) / bwd0:.3f}"
                    cells.append(f"{v} {f:.1f} / {fb:.1f} ({ratios})")
            print(f"  {case:20} " + "; ".join(cells))


def print_ncu(folder: Path, ncu_runs: tuple[str, ...]) -> None:
    for run in ncu_runs:
        path = folder / f"ncu_layer_norm_{run}.txt"
        if not path.exists():
            print(f"== ncu {run}: not run")
            continue
        print(f"== ncu {run} (bfloat16 LayerNorm backward at 1024 x 65536)")
        for cells in csv.reader(path.read_text().splitlines()):
            if len(cells) > 14 and "backward_kernel" in cells[4]:
                print(f"  {cells[12]}: {cells[14]} {cells[13]}".rstrip())


def main(folder: Path, reference: str, variants: tuple[str, ...], ncu_runs: tuple[str, ...] = ()) -> None:
    print_times(load(folder, f"res_{folder.name}.tgz"), reference, variants)
    print_ncu(folder, ncu_runs)


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit("usage: python3 lab_summary.py FOLDER REFERENCE VARIANT...")
    main(Path(sys.argv[1]), sys.argv[2], tuple(sys.argv[3:]))
