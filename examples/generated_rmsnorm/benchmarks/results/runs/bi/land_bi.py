"""Landing of call BI (call_bi.sh's phases 1 and 2 on one H200, unpacked into runs/bi/1/ and 2/): the
zero-centred RMSNorm's two projects (scaffold/gpu.py's ZERO_CENTERED_NORMS), each one's suite (phase
2: tests, compute-sanitizer; one GPU, so its two-GPU cases skipped, as its tests.log says), its build
log and its benchmark (phase 1, against Liger-Kernel's gemma mode) into results/norms/<operator>/,
where `scaffold results-table` puts their tables beside the other norms'.
Usage (in the repository's venv): python3 land_bi.py [--check]; then `scaffold results-table --write`.
It checks first and copies nothing unless every check passes: both phases ran one commit's bundle,
rendered without uncommitted changes; each suite passed, nothing failed or deselected, memcheck and
racecheck clean (each of its own operator), on the kernel sources the template renders now for the
operator; each benchmark's first tests passed and it ended with exit 0, a full GPU run against
Liger-Kernel of the suite's sources, with the cells of the same norm's table without the zero-centred
weight, a device time for each implementation and a percentage where not host-bound."""

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE.parents[1]
sys.path.insert(0, str(RESULTS.parents[3]))  # the repository: scaffold
from scaffold import gpu, results  # noqa: E402

SUITE_LOGS = ["gpu_suite.json", "tests.log", "sanitizer_memcheck.log", "sanitizer_racecheck.log"]
NAMES = list(gpu.ZERO_CENTERED_NORMS)
# The table of the same norm without the zero-centred weight, whose cells each benchmark must have.
COUNTERPART = {
    "gemma_rms_norm": RESULTS / "bench_rms_norm.json",
    "fused_add_gemma_rms_norm": RESULTS / "norms" / "fused_add_rms_norm" / "bench_fused_add_rms_norm.json",
}


def cells(bench: dict) -> set:
    return {(r["dtype"], tuple(r["shape"]), r["pass"]) for r in bench["results"]}


def check() -> list[str]:
    problems = []
    for name in NAMES:
        files = [f"2/{name}/{f}" for f in SUITE_LOGS] + [f"2/build_{name}.log"]
        files += [f"1/{name}/{f}" for f in (f"bench_{name}.json", f"bench_{name}.png", "benchmark.log")]
        problems += [f"missing: {f}" for f in files if not (HERE / f).is_file()]
    if problems:
        return problems
    commits = {(HERE / phase / "commit.txt").read_text() for phase in ("1", "2")}
    if len(commits) != 1 or len(next(iter(commits)).strip().splitlines()) != 1:
        problems.append(f"the phases ran other bundles than one commit's, clean: {sorted(commits)}")
    console = (HERE / "1" / "console.txt").read_text()
    for name in NAMES:
        suite = json.loads((HERE / "2" / name / "gpu_suite.json").read_text())
        summary = suite["tests"].get("summary") or ""
        if suite["failed"] or not suite["tests"]["ok"] or " failed" in summary or " error" in summary:
            problems.append(f"{name}: its suite failed ({suite['failed']}, {summary})")
        if "deselected" in summary:
            problems.append(f"{name}: its suite deselected tests ({summary})")
        log = (HERE / "2" / name / "tests.log").read_text().strip().splitlines()
        if not log or summary.split(" in ")[0] not in log[-1]:
            problems.append(f"{name}: tests.log is not the log of its gpu_suite.json's tests")
        verdicts = [(s["op"], s["tool"], s["verdict"]) for s in suite["sanitizer"]]
        if verdicts != [(name, "memcheck", "clean"), (name, "racecheck", "clean")]:
            problems.append(f"{name}: compute-sanitizer not clean")
        recorded = suite["environment"].get("sources_sha256") or ""
        if recorded != results._digest(results.norm_csrc(name)):
            problems.append(f"{name}: its suite ran other kernel sources than the template renders now")
        bench = json.loads((HERE / "1" / name / f"bench_{name}.json").read_text())
        meta = bench["meta"]
        if f"first tests {name} exit 0 " not in console or f"bench {name} exit 0 " not in console:
            problems.append(
                f"{name}: its first tests or its benchmark did not end with exit 0 (1/console.txt)"
            )
        if meta.get("sources_sha256") != recorded:
            problems.append(f"{name}: its benchmark measured other kernel sources than its suite")
        if (
            meta.get("device_type") != "gpu"
            or meta.get("quick")
            or meta.get("peers") != ["liger"]
            or not meta.get("liger_version")
            or not meta.get("zero_centered_weight")
            or meta.get("residual_add", False) != gpu.ZERO_CENTERED_NORMS[name].get("residual_add", False)
            or not meta.get("op", "").endswith(f"::{name}")
        ):
            problems.append(
                f"{name}: its benchmark is not a full GPU run of its answers against Liger-Kernel"
            )
        if cells(bench) != cells(json.loads(COUNTERPART[name].read_text())):
            problems.append(f"{name}: its benchmark's cells are not those of {COUNTERPART[name].name}")
        for r in bench["results"]:
            host_bound = r.get("host_bound", r["copy_ms"] < 0.02)
            names = ["ours", "eager", "compile", "liger"]
            if not all(isinstance(r["device_ms"].get(n), float) for n in names) or (
                not host_bound and not all(isinstance(r["pct_of_copy"].get(n), float) for n in names)
            ):
                problems.append(
                    f"{name}: cell {r['dtype']} {r['shape']} {r['pass']} lacks a time or a percentage"
                )
    return problems


def land() -> None:
    for name in NAMES:
        folder = RESULTS / "norms" / name
        folder.mkdir(parents=True, exist_ok=True)
        for f in SUITE_LOGS:
            shutil.copyfile(HERE / "2" / name / f, folder / f)
        shutil.copyfile(HERE / "2" / f"build_{name}.log", folder / "build.log")
        for f in (f"bench_{name}.json", f"bench_{name}.png", "benchmark.log"):
            shutil.copyfile(HERE / "1" / name / f, folder / f)


if __name__ == "__main__":
    if sys.argv[1:] not in ([], ["--check"]):
        sys.exit("usage: land_bi.py [--check]")
    found = check()
    if found:
        sys.exit("\n".join(found))
    if sys.argv[1:] == ["--check"]:
        print("every check passed; nothing copied (--check)")
    else:
        land()
        print("landed: now scaffold results-table --write")
