"""Landing of call BN (issue 11; its benchmarks ran in session 55, 2026-12-01, on one H200), through
../landing.py (its checks, then its copies), for the change of template_change.diff (../bm/'s change
and lab BO's XF):
- the four norms of call_ap.sh: benchmarks from phase 1 (runs/bn/1/; the residual-add RMSNorm's from
  runs/bn/1b/, the same phase's second call, `PROJECTS=fused_add_rms_norm`), suites from phases 2 and 3
  (runs/bn/2/, 3/), the two-family project's suite from phase 3;
- the two zero-centred norms of call_bi.sh: benchmarks from its phase 1 (runs/bnz/1/), suites from its
  phase 2 (runs/bnz/2/, one GPU as call BI's).
Phase 1 of both ran the bundle of commit e95040d, a local commit (fc0d0b5's successor c8bca7a with the
change applied) that main does not hold; the suites run the bundle of main's commit that applies
template_change.diff, which renders the same kernel sources (checked in session 55 for all six norms'
digests). So each benchmark is bound to its suite by the kernel sources' digest
(Landing.benches_by_sources), and the suites' phases must have run one commit's bundle. (Call CB's,
from session 60 on: its phase 1 and all its suites run the bundle of 7ec2e34, a local commit that
../cb/candidate.sh makes again; landing.py asks only that the suites share a commit and that every
record ran the kernel sources that the template renders when it lands.)
Usage (in the repository's venv):
    python3 land_bn.py [--names FIRST,ZERO] [--only FIRST|ZERO] [--gpus 1] [--suite PROJECT=PHASE]...
                       [--bench PROJECT=PHASE]... [--check]
  --names FIRST,ZERO     (from session 59 on) a later landing of the same phases under its own names,
                         runs/FIRST/ for call_ap.sh's (CALL=FIRST) and runs/ZERO/ for call_bi.sh's
                         (CALL=ZERO), each laid out as bn/ and bnz/ (call CB's: --names cb,cbz);
                         plain names of folders runs/ has, both; bn,bnz unless given
  --only CALL            land call BN or call BNZ alone (both unless named): on one GPU their suites
                         take more than one session's device time, so each may land in a session of
                         its own (BNZ's suites then run main's bundle once BN has landed)
  --suite PROJECT=PHASE  PROJECT's suite from another phase: `SUITE=PROJECT CALL=bn bash
                         ../ap/call_ap.sh 4` unpacked into runs/bn/PHASE/ (e.g. 4_layer_norm); repeatable
  --bench PROJECT=PHASE  (from session 60 on) PROJECT's benchmark from another phase-1 folder of the
                         first call, such as runs/cb/1b/ (call CB's RMSNorm benchmark, left by its
                         first call for its second); repeatable
  --gpus 1               the suites ran with one GPU visible (nvidia-h200 alone: call_ap.sh's phases 2
                         and 3 need two, so each norm's suite then runs alone in a phase 4 of its own,
                         named with --suite). The norms' landed suites, two-GPU runs, are first copied
                         into each norm's two_gpus/ (where it has none), which keeps the two-GPU record
                         that tests/test_results.py asks for (the README then says it ran other kernel
                         sources); the two-family project's two-GPU run stays as it is.
It checks every landing it lands before it copies any; then `scaffold results-table --write`. Each
call's benchmark plots wait in its folder's pending_plots.tar (runs/ keeps a bench_*.png only while the
results hold its benchmark: the runs README's "Plots"): it unpacks them for its checks and removes
them again unless it lands, then removes the archive."""

import dataclasses
import json
import re
import shutil
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "ap"), str(HERE.parent / "bi")]
import landing  # noqa: E402
from land_ap import AP  # noqa: E402  (call_ap.sh's phases, which call BN ran under its own name)
from land_bi import BI  # noqa: E402  (call_bi.sh's, which call BNZ ran)

# call_ap.sh's landing, but for the residual-add RMSNorm's benchmark (phase 1's second call, 1b/) and
# the benchmarks' other commit (with_phases below sets the phases).
BN = dataclasses.replace(
    AP,
    call=HERE,
    benches={**AP.benches, "fused_add_rms_norm": ("1b", AP.benches["fused_add_rms_norm"][1])},
    benches_by_sources=True,
)
BNZ = dataclasses.replace(BI, call=HERE.parent / "bnz", benches_by_sources=True)
USAGE = (
    "usage: land_bn.py [--names FIRST,ZERO] [--only FIRST|ZERO] [--gpus 1] "
    "[--suite PROJECT=PHASE]... [--bench PROJECT=PHASE]... [--check]"
)


def options(args: list[str], name: str) -> list[str]:
    """The values after each `name` in args (removing them)."""
    values = []
    while name in args:
        at = args.index(name)
        if at + 1 >= len(args):
            sys.exit(USAGE)
        values.append(args[at + 1])
        del args[at : at + 2]
    return values


def with_phases(call: landing.Landing) -> landing.Landing:
    """call with its phases those that its suites, benchmarks and two-family run name."""
    named = {*call.suites.values(), *(phase for phase, _ in call.benches.values()), call.two_families}
    return dataclasses.replace(call, phases=sorted(named - {None}))


def unpack_plots(call: landing.Landing) -> list[Path]:
    """call's pending plots, unpacked into their folders (none where its archive is gone: landed)."""
    archive = call.call / "pending_plots.tar"
    if not archive.is_file():
        return []
    with tarfile.open(archive) as plots:
        members = [m for m in plots.getmembers() if m.isfile()]
        if any(Path(m.name).parts[:1] != (call.call.name,) or ".." in Path(m.name).parts for m in members):
            sys.exit(f"{archive}: a member outside {call.call.name}/")
        # (The members are checked above; the "data" filter too where this Python has it: 3.10.12 on.)
        data = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        plots.extractall(call.call.parent, members=members, **data)
    return [call.call.parent / m.name for m in members]


def keep_two_gpu_runs(call: landing.Landing) -> None:
    """Each landed suite of call's norms that ran with two GPUs, copied into the norm's two_gpus/."""
    for project in call.suites:
        folder = landing.RESULTS / landing.WHERE[project]
        suite = json.loads((folder / "gpu_suite.json").read_text())
        if (folder / "two_gpus").exists() or suite["environment"].get("gpu_count", 1) < 2:
            continue
        (folder / "two_gpus").mkdir()
        for name in ("gpu_suite.json", "tests.log"):
            shutil.copyfile(folder / name, folder / "two_gpus" / name)
        print(f"kept {landing.WHERE[project]}'s two-GPU suite in its two_gpus/")


if __name__ == "__main__":
    args = sys.argv[1:]
    names = options(args, "--names")
    if len(names) > 1 or (names and names[0].count(",") != 1):
        sys.exit(USAGE)
    first, zero = names[0].split(",") if names else ("bn", "bnz")
    # (Plain folder names of runs/, both there: a name with a path in it would match no call's folder.)
    if not all(re.fullmatch(r"[a-z][a-z0-9_]*", n) and (HERE.parent / n).is_dir() for n in (first, zero)):
        sys.exit(USAGE)
    if first == zero:
        sys.exit(USAGE)
    BN = dataclasses.replace(BN, call=HERE.parent / first)
    BNZ = dataclasses.replace(BNZ, call=HERE.parent / zero)
    only = options(args, "--only")
    if only not in ([], [first], [zero]):
        sys.exit(USAGE)
    gpus = options(args, "--gpus")
    if gpus not in ([], ["1"], ["2"]):
        sys.exit(USAGE)
    if only == [zero] and (gpus or "--suite" in args or "--bench" in args):
        sys.exit(f"--gpus, --suite and --bench are {first}'s: {zero}'s phases are 1 and 2")
    if gpus == ["1"]:
        BN = dataclasses.replace(BN, gpus=1, two_families=None)
    reruns, moved_benches = options(args, "--suite"), options(args, "--bench")
    for named in (reruns, moved_benches):  # (one project twice: the last would win, unsaid)
        if len({value.partition("=")[0] for value in named}) != len(named):
            sys.exit(f"a project named twice: {' '.join(named)}\n{USAGE}")
    for rerun in reruns:
        project, _, phase = rerun.partition("=")
        if project not in BN.suites or not phase:
            sys.exit(USAGE)
        BN = dataclasses.replace(
            BN,
            suites={**BN.suites, project: phase},
            builds={**BN.builds, project: f"{phase}/{project}/build.log"},
        )
    for moved in moved_benches:
        project, _, phase = moved.partition("=")
        if project not in BN.benches or not re.fullmatch(r"1[a-z]?", phase):
            sys.exit(USAGE)
        BN = dataclasses.replace(BN, benches={**BN.benches, project: (phase, BN.benches[project][1])})
    if args not in ([], ["--check"]):  # (a misspelt --check would otherwise land)
        sys.exit(USAGE)
    calls = [c for c in (with_phases(BN), BNZ) if not only or c.call.name == only[0]]  # (never none)
    unpacked, problems = [], None
    try:
        for call in calls:
            unpacked += unpack_plots(call)
        problems = [f"{call.call.name}/{p}" for call in calls for p in landing.check(call)]
    finally:  # (runs/ as it was, unless the checks passed for a landing: then the plots stay there)
        if problems != [] or "--check" in args:
            for plot in unpacked:
                plot.unlink(missing_ok=True)
    if problems:
        sys.exit("\n".join(problems))
    if "--check" in args:
        print("every check passed; nothing copied (--check)")
        sys.exit(0)
    for call in calls:
        if call.call.name == first and call.gpus == 1:
            keep_two_gpu_runs(call)
        landing.land(call)  # (all before prune_plots, which would take a call's plots not yet landed)
        (call.call / "pending_plots.tar").unlink(missing_ok=True)  # (the landed benchmarks' plots now)
    for plot in landing.prune_plots():
        print(f"removed {plot.relative_to(landing.RESULTS)}: its benchmark is no longer the landed one")
    print("landed: now scaffold results-table --write")
