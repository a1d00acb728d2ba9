# ruff: noqa: E501
"""Lab builds' benchmarks side by side (labs BZ and CA, session 59): each build's device time over
its base's in the same call (where the base ran twice, the larger of the two ratios, that is over
the smaller base), every cell that is not host-bound (the benchmark's '-'), and the float32 forward
and forward+backward at 4096 x 16384 with the forward's share of the copy rate. A lab's compare
script names its folder and its benchmarks (bench_STEM.json) and prints report()'s lines."""

import json
from pathlib import Path

HEADER = "project              build       cells  worst (over base's)                        best                                 4096x16384 fp32 fwd us  %copy  fwd+bwd us"


def cells(path: Path) -> dict:
    rows = json.loads(path.read_text())["results"]
    return {(r["dtype"], tuple(r["shape"]), r["pass"]): r for r in rows}


def name(k) -> str:
    return f"{k[0]} {k[1][0]}x{k[1][1]} {k[2]}"


def report(folder: Path, project: str, bases: list[str], builds: list[str]) -> list[str]:
    """A line for bases[0] and each of builds (stems of folder/bench_STEM.json), labelled by the stem
    with project's prefix taken off."""
    base_cells = [cells(folder / f"bench_{b}.json") for b in bases]
    lines = []
    for stem in [bases[0], *builds]:
        ours = cells(folder / f"bench_{stem}.json")
        ratios = sorted(
            (max(row["device_ms"]["ours"] / b[key]["device_ms"]["ours"] for b in base_cells), key)
            for key, row in ours.items()
            if not row["host_bound"]
        )
        goal = ours[("float32", (4096, 16384), "forward")]
        both = ours[("float32", (4096, 16384), "forward+backward")]
        label = stem.removeprefix(f"{project}_")
        lines.append(
            f"{project:20} {label:10} {len(ratios):5}  {ratios[-1][0]:.3f} {name(ratios[-1][1]):38} {ratios[0][0]:.3f} {name(ratios[0][1]):32}"
            f" {goal['device_ms']['ours'] * 1000:8.1f}  {goal['pct_of_copy']['ours']:5.1f}%  {both['device_ms']['ours'] * 1000:8.1f}"
        )
    return lines


def cell_lines(folder: Path, projects: tuple[str, ...], variant: str, select) -> list[str]:
    """Each cell that select(row, base again over base, variant over the smaller base) keeps: each
    run's device time in us (base, base again, the variant), then those two ratios."""
    runs_of = ("base", "base_again", variant)
    lines = []
    for project in projects:
        runs = {b: cells(folder / f"bench_{project}_{b}.json") for b in runs_of}
        for key, row in runs[variant].items():
            us = {b: runs[b][key]["device_ms"]["ours"] * 1000 for b in runs_of}
            again, ratio = us["base_again"] / us["base"], us[variant] / min(us["base"], us["base_again"])
            if not select(row, again, ratio):
                continue
            times = " ".join(f"{us[b]:7.2f}" for b in runs_of)
            shape = f"{key[1][0]}x{key[1][1]}"
            lines.append(f"{project:20} {key[0]:9} {shape:10} {key[2]:17} {times}  {again:.3f} {ratio:.3f}")
    return lines


def host_bound_report(folder: Path, projects: tuple[str, ...], variant: str) -> list[str]:
    """The host-bound cells (from lab CC on; lab CC's compare script wrote it out): each run's device
    time (base, base again, the variant), base again over base, and the variant over the smaller base."""
    return [
        "\nhost-bound cells, device time in us: base, base again, " + variant + "; base again over base;",
        variant + " over the smaller base",
        *cell_lines(folder, projects, variant, lambda row, again, ratio: row["host_bound"]),
    ]


def beyond_report(folder: Path, projects: tuple[str, ...], variant: str) -> list[str]:
    """The cells that are not host-bound where base again over base or the variant over the smaller
    base lies beyond 0.99 to 1.01 (from session 62's review on: report() names only the worst and
    the best cell), as host_bound_report prints them."""

    def beyond(row, again, ratio):
        return not row["host_bound"] and not (0.99 <= again <= 1.01 and 0.99 <= ratio <= 1.01)

    return [
        "\ncells that are not host-bound beyond 0.99 to 1.01, device time in us: base, base again, "
        + variant
        + "; base again over base; "
        + variant
        + " over the smaller base",
        *cell_lines(folder, projects, variant, beyond),
    ]


def lab_report(folder: Path, projects: tuple[str, ...], variant: str) -> list[str]:
    """A lab of one variant against base run before and after it (from lab CC on): HEADER, each
    project's report() of base again against base and of the variant, then beyond_report() and
    host_bound_report(). A project whose three benchmarks did not all finish (a run the limit cut)
    is named first and left out (from session 63 on; labs CI and CJ checked it in their own
    scripts)."""
    finished = tuple(
        p
        for p in projects
        if all((folder / f"bench_{p}_{b}.json").exists() for b in ("base", variant, "base_again"))
    )
    lines = [f"{p}: left out, its benchmarks did not all finish" for p in projects if p not in finished]
    if not finished:
        return lines
    lines.append(HEADER)
    projects = finished
    for project in projects:
        bases, builds = (
            [f"{project}_base", f"{project}_base_again"],
            [f"{project}_base_again", f"{project}_{variant}"],
        )
        lines += report(folder, project, bases, builds)
    return lines + beyond_report(folder, projects, variant) + host_bound_report(folder, projects, variant)
