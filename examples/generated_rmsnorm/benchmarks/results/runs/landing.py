"""What the landings of issue 11's GPU calls share (from call AP on; land_ai.sh and land_ak.sh each wrote
these checks out): a call's records, unpacked into runs/CALL/PHASE/, checked, then copied where
tests/test_results.py and `scaffold results-table` read them. A landing script (ap/land_ap.py) describes
its call as a Landing and passes it to main():

    landing.main(Landing(...), sys.argv[1:])   # [--check]: check only, copy nothing

It checks first and copies nothing unless every check passes:
- every file it copies is there;
- all phases ran one commit's bundle, rendered without uncommitted changes (a landing that says so,
  call BN's from session 55 on, may take its benchmarks from phases of another commit's bundle: each
  benchmark is then bound to its suite by the kernel sources' digest alone, as it is below anyway);
- each suite passed with nothing failed, none deselected, at least the call's GPUs visible (two unless
  it says one, as call BI does: then none of its two-GPU cases skipped), its tests.log ending with its
  gpu_suite.json's summary, compute-sanitizer's memcheck then racecheck of its own operator clean (but
  the two-family project's, run without), on the kernel sources the template renders now (or sources
  that differ from them only in comments: scaffold.results);
- each benchmark's first tests passed (its phase's console.txt), and it is a full GPU run of its
  operator on its suite's kernel sources, against the peers named, with the cells of the table it
  replaces, a device time for each implementation and a percentage where not host-bound in every
  cell, and it ended with exit 0.
Once landed, it removes the plots in runs/ of benchmarks the results no longer hold (prune_plots).
PYTHON must import the repository's scaffold package (its venv)."""

from __future__ import annotations

import dataclasses
import json
import shutil
import sys
from pathlib import Path

RESULTS = Path(__file__).resolve().parents[1]  # benchmarks/results
sys.path.insert(0, str(RESULTS.parents[3]))  # the repository: scaffold
from scaffold import gpu  # noqa: E402
from scaffold import results as scaffold_results  # noqa: E402

# What each project of `scaffold gpu-bundle` is: its operator, and where its records go (under RESULTS).
OPS = {"rmsnorm": "rms_norm", **{p: p for p in gpu.BUNDLE_NORMS}}
WHERE = {"rmsnorm": ".", **{p: f"norms/{p}" for p in gpu.BUNDLE_NORMS}}
SUITE_LOGS = ["gpu_suite.json", "tests.log", "sanitizer_memcheck.log", "sanitizer_racecheck.log"]


@dataclasses.dataclass
class Landing:
    call: Path  # runs/CALL, holding PHASE/ folders
    phases: list[str]
    suites: dict[str, str]  # project -> the phase whose suite lands
    builds: dict[str, str]  # project -> its build log, relative to `call`
    benches: dict[str, tuple[str, list[str]]]  # project -> (phase, peers)
    two_families: str | None  # the phase of the two-family project's suite (None: not in this call)
    gpus: int = 2  # the GPUs each suite saw (2: it is also the norm's two-GPU run)
    # Whether phases holding only benchmarks may have run another commit's bundle (call BN: its phase 1
    # ran on a commit that main does not hold, whose kernel sources main's landing commit renders).
    benches_by_sources: bool = False


def needed(landing: Landing) -> list[str]:
    files = [f"{phase}/{name}" for phase in landing.phases for name in ("commit.txt", "console.txt")]
    files += [f"{phase}/{p}/{f}" for p, phase in landing.suites.items() for f in SUITE_LOGS]
    files += list(landing.builds.values())
    for p, (phase, _) in landing.benches.items():
        op = OPS[p]
        files += [f"{phase}/{p}/{f}" for f in (f"bench_{op}.json", f"bench_{op}.png", "benchmark.log")]
    if landing.two_families:
        files += [f"{landing.two_families}/two_families/{f}" for f in ("gpu_suite.json", "tests.log")]
    return files


def check(landing: Landing) -> list[str]:
    call = landing.call
    problems = [f"missing: {f}" for f in needed(landing) if not (call / f).is_file()]
    two_families = call / (landing.two_families or "") / "two_families"
    if landing.two_families and not list(two_families.glob("copier-answers*.yml")):
        problems.append(f"missing: {landing.two_families}/two_families/copier-answers*.yml")
    if problems:
        return problems
    commits = {phase: (call / phase / "commit.txt").read_text() for phase in landing.phases}
    bound = set(landing.suites.values()) | {landing.two_families} if landing.benches_by_sources else None
    if len({c for phase, c in commits.items() if bound is None or phase in bound}) != 1:
        problems.append(f"the phases ran {len(set(commits.values()))} commits' bundles")
    if any(len(c.strip().splitlines()) > 1 for c in commits.values()):
        problems.append("a bundle was rendered with uncommitted changes")
    sources = {}
    folders = [f"{phase}/{p}" for p, phase in landing.suites.items()]
    if landing.two_families:
        folders.append(f"{landing.two_families}/two_families")
    for folder in folders:
        suite = json.loads((call / folder / "gpu_suite.json").read_text())
        summary = suite.get("tests", {}).get("summary") or ""
        failed = " failed" in summary or " error" in summary
        if suite.get("failed") or not suite.get("tests", {}).get("ok") or failed:
            problems.append(f"{folder}: failed {suite.get('failed')}, {summary}")
        if suite["environment"].get("gpu_count", 1) < landing.gpus:
            problems.append(f"{folder}: {suite['environment'].get('gpu_count')} GPU(s), not {landing.gpus}")
        log = (call / folder / "tests.log").read_text()
        if landing.gpus > 1 and "needs two CUDA devices" in log:  # (scaffold/results.py's _NEEDS_TWO_GPUS)
            problems.append(f"{folder}: its two-GPU cases were skipped")
        if summary.split(" in ")[0] not in (log.strip().splitlines() or [""])[-1]:
            problems.append(f"{folder}: tests.log is not the log of its gpu_suite.json's tests")
        if "deselected" in summary:
            problems.append(f"{folder}: its suite deselected tests ({summary})")
        project = folder.split("/")[1]
        recorded = suite["environment"].get("sources_sha256") or ""
        if project == "rmsnorm":
            example = scaffold_results.ROW_NORM_RESULTS_DIR.parents[1]
            sentence = scaffold_results.sources_statement(suite, example)
            current = "has not been measured" not in sentence and "earlier kernel sources" not in sentence
        elif project != "two_families":
            current = scaffold_results.norm_sources_statement(project, recorded)[0]
        else:
            current = True  # (its own rendering: the phases' commit.txt, checked above)
        if not current:
            problems.append(f"{folder}: it ran other kernel sources than the template renders now")
        if project != "two_families":
            verdicts = [(s.get("op"), s["tool"], s["verdict"]) for s in suite.get("sanitizer", [])]
            if verdicts != [(OPS[project], "memcheck", "clean"), (OPS[project], "racecheck", "clean")]:
                problems.append(f"{folder}: compute-sanitizer not clean")
            sources[project] = recorded
    for p, (phase, peers) in landing.benches.items():
        op = OPS[p]
        console = (call / phase / "console.txt").read_text()
        if f"first tests {p} exit 0 " not in console:
            problems.append(f"{phase}/{p}: its first tests did not pass ({phase}/console.txt)")
        bench = json.loads((call / phase / p / f"bench_{op}.json").read_text())
        meta = bench["meta"]
        table = json.loads((RESULTS / WHERE[p] / f"bench_{op}.json").read_text())

        def cells(b):
            return {(r["dtype"], tuple(r["shape"]), r["pass"]) for r in b["results"]}

        if cells(bench) != cells(table):
            problems.append(f"{phase}/{p}: its benchmark's cells are not those of the table it replaces")
        if p not in sources:
            problems.append(f"{phase}/{p}: no suite of its operator lands with it")
        elif meta.get("sources_sha256") != sources[p]:
            problems.append(f"{phase}/{p}: its benchmark measured other kernel sources than its suite")
        if (
            meta.get("device_type") != "gpu"
            or meta.get("quick")
            or not meta.get("liger_version")
            or meta.get("peers") != peers
            or not meta.get("op", "").endswith(f"::{op}")
        ):
            problems.append(f"{phase}/{p}: its benchmark is not a full GPU run against {peers or 'no peer'}")
        if f"bench {p} exit 0 " not in console:
            problems.append(f"{phase}/{p}: its benchmark did not end with exit 0 ({phase}/console.txt)")
        for r in bench["results"]:
            names = ["ours", "eager", "compile", *peers]
            host_bound = r.get("host_bound", r["copy_ms"] < 0.02)
            if not all(isinstance(r["device_ms"].get(n), float) for n in names) or (
                not host_bound and not all(isinstance(r["pct_of_copy"].get(n), float) for n in names)
            ):
                cell = f"{r['dtype']} {r['shape']} {r['pass']}"
                problems.append(f"{phase}/{p}: cell {cell} lacks a time or a percentage")
    return problems


def land(landing: Landing) -> None:
    call = landing.call
    for p, phase in landing.suites.items():
        for f in SUITE_LOGS:
            shutil.copyfile(call / phase / p / f, RESULTS / WHERE[p] / f)
        shutil.copyfile(call / landing.builds[p], RESULTS / WHERE[p] / "build.log")
    for p, (phase, _) in landing.benches.items():
        op = OPS[p]
        for f in (f"bench_{op}.json", f"bench_{op}.png", "benchmark.log"):
            shutil.copyfile(call / phase / p / f, RESULTS / WHERE[p] / f)
        # Runs of the replaced benchmark's kernel sources (scaffold results-table's reruns.json, from
        # session 58 on) say nothing of the new table: a landing leaves them in runs/ only.
        (RESULTS / WHERE[p] / scaffold_results.RERUNS_FILE).unlink(missing_ok=True)
    if not landing.two_families:
        return
    two = RESULTS / "two_families" / "two_gpus"
    for old in two.glob("copier-answers*.yml"):
        old.unlink()
    source = call / landing.two_families
    for f in ("gpu_suite.json", "tests.log"):
        shutil.copyfile(source / "two_families" / f, two / f)
    shutil.copyfile(source / "commit.txt", two / "commit.txt")
    for answers in (source / "two_families").glob("copier-answers*.yml"):
        shutil.copyfile(answers, two / answers.name)


def prune_plots() -> list[Path]:
    """Remove the plots in runs/ of benchmarks that the results no longer hold (from session 52 on,
    README.md's "Plots": the device tool sends the whole working tree, 64 MiB at most)."""
    landed = scaffold_results.landed_benchmarks(RESULTS)
    removed = []
    for plot in sorted((RESULTS / "runs").rglob("bench_*.png")):
        record = plot.with_suffix(".json")
        if not (record.is_file() and record.read_bytes() in landed):
            plot.unlink()
            removed.append(plot)
    return removed


def main(landing: Landing, argv: list[str]) -> None:
    problems = check(landing)
    if problems:
        sys.exit("\n".join(problems))
    if "--check" in argv:
        print("every check passed; nothing copied (--check)")
        return
    land(landing)
    for plot in prune_plots():
        print(f"removed {plot.relative_to(RESULTS)}: its benchmark is no longer the landed one")
    print("landed: now scaffold results-table --write")
