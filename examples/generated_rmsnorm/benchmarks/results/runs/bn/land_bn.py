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
(Landing.benches_by_sources), and the suites' phases must have run one commit's bundle.
Usage (in the repository's venv): python3 land_bn.py [--gpus 1] [--suite PROJECT=PHASE] [--check]
  --gpus 1             call_ap.sh's phases 2 and 3 ran on one GPU (their two-GPU cases skipped)
  --suite PROJECT=PHASE  PROJECT's suite from another phase (call_ap.sh 4, unpacked into runs/bn/4/)
It checks both landings before it copies either; then `scaffold results-table --write`. The six
benchmarks' plots wait in pending_plots.tar (runs/ keeps a bench_*.png only while the results hold its
benchmark: the runs README's "Plots"); it unpacks them into their folders first (so that even
--check leaves them there) and removes the archive once it has landed."""

import dataclasses
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import landing  # noqa: E402
from landing import gpu  # noqa: E402  (scaffold.gpu, which landing.py imports)

BN = landing.Landing(
    call=HERE,
    phases=["1", "1b", "2", "3"],
    suites={"fused_add_rms_norm": "2", "fused_add_layer_norm": "2", "layer_norm": "3", "rmsnorm": "3"},
    builds={
        "fused_add_rms_norm": "2/build_fused_add_rms_norm.log",
        "fused_add_layer_norm": "2/build_fused_add_layer_norm.log",
        "layer_norm": "3/layer_norm/build.log",
        "rmsnorm": "3/build_rmsnorm.log",
    },
    benches={
        "rmsnorm": ("1", ["liger"]),
        "layer_norm": ("1", ["liger"]),
        "fused_add_rms_norm": ("1b", ["liger"]),
        "fused_add_layer_norm": ("1", []),
    },
    two_families="3",
    benches_by_sources=True,
)
ZERO_CENTERED = list(gpu.ZERO_CENTERED_NORMS)
BNZ = landing.Landing(
    call=HERE.parent / "bnz",
    phases=["1", "2"],
    suites={name: "2" for name in ZERO_CENTERED},
    builds={name: f"2/build_{name}.log" for name in ZERO_CENTERED},
    benches={name: ("1", ["liger"]) for name in ZERO_CENTERED},
    two_families=None,
    gpus=1,
    benches_by_sources=True,
)
USAGE = "usage: land_bn.py [--gpus 1] [--suite PROJECT=PHASE] [--check]"


def option(args: list[str], name: str) -> str | None:
    """The value after `name` in args (removing both), or None where it is absent."""
    if name not in args:
        return None
    at = args.index(name)
    if at + 1 >= len(args):
        sys.exit(USAGE)
    value = args[at + 1]
    del args[at : at + 2]
    return value


if __name__ == "__main__":
    args = sys.argv[1:]
    gpus = option(args, "--gpus")
    if gpus is not None:
        if gpus not in ("1", "2"):
            sys.exit(USAGE)
        BN = dataclasses.replace(BN, gpus=int(gpus))
    rerun = option(args, "--suite")
    if rerun is not None:
        project, _, phase = rerun.partition("=")
        if project not in BN.suites or not phase:
            sys.exit(USAGE)
        BN = dataclasses.replace(
            BN,
            phases=BN.phases + [phase] * (phase not in BN.phases),
            suites={**BN.suites, project: phase},
            builds={**BN.builds, project: f"{phase}/{project}/build.log"},
        )
    if args not in ([], ["--check"]):  # (a misspelt --check would otherwise land)
        sys.exit(USAGE)
    with tarfile.open(HERE / "pending_plots.tar") as plots:
        plots.extractall(HERE.parent, filter="data")
    problems = [f"{call.call.name}/{p}" for call in (BN, BNZ) for p in landing.check(call)]
    if problems:
        sys.exit("\n".join(problems))
    if "--check" in args:
        print("every check passed; nothing copied (--check)")
    else:
        landing.land(BN)
        landing.land(BNZ)  # (before prune_plots, which would take its plots: BN's landing lacks them)
        (HERE / "pending_plots.tar").unlink()  # (its plots are the landed benchmarks' now)
        for plot in landing.prune_plots():
            print(f"removed {plot.relative_to(landing.RESULTS)}: its benchmark is no longer the landed one")
        print("landed: now scaffold results-table --write")
