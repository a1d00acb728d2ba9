"""Landing of call AP (call_ap.sh's phases 1 to 3 on two H200s, unpacked into runs/ap/1/ to 3/), through
../landing.py (its checks, then its copies):
- each norm's suite and build log: phase 2's residual-add RMSNorm and residual-add LayerNorm (from
  their phase's builds), phase 3's LayerNorm (from its suite's own build) and RMSNorm example (run alone
  after its phase's build). Each ran with both GPUs visible, so it is also the norm's two-GPU run;
- every norm's benchmark (phase 1), against Liger-Kernel where it has the operator;
- the two-family project's suite (phase 3) into two_families/two_gpus/, with its bundle's commit.txt
  and copier answers.
Usage (in the repository's venv): python3 land_ap.py [--check]; then `scaffold results-table --write`.
A later landing that ran call_ap.sh's phases under its own name (CALL=NAME, unpacked into runs/NAME/1/
to 3/): python3 land_ap.py --call NAME [--check] (call AV's records too, which a land_av.py holding
the same description landed). `--suite PROJECT=PHASE` (from call AW on) lands PROJECT's suite, with
the build log of its own build, from PHASE (call_ap.sh 4: a suite again, alone) instead."""

import dataclasses
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import landing  # noqa: E402

AP = landing.Landing(
    call=HERE,
    phases=["1", "2", "3"],
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
        "fused_add_rms_norm": ("1", ["liger"]),
        "fused_add_layer_norm": ("1", []),
    },
    two_families="3",
)

USAGE = "usage: land_ap.py [--call NAME] [--suite PROJECT=PHASE] [--check]"


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
    name = option(args, "--call")
    if name is not None:
        AP = dataclasses.replace(AP, call=HERE.parent / name)
    rerun = option(args, "--suite")
    if rerun is not None:
        project, _, phase = rerun.partition("=")
        if project not in AP.suites or not phase:
            sys.exit(USAGE)
        AP = dataclasses.replace(
            AP,
            phases=AP.phases + [phase] * (phase not in AP.phases),
            suites={**AP.suites, project: phase},
            builds={**AP.builds, project: f"{phase}/{project}/build.log"},
        )
    if args not in ([], ["--check"]):  # (a misspelt --check would otherwise land)
        sys.exit(USAGE)
    landing.main(AP, args)
