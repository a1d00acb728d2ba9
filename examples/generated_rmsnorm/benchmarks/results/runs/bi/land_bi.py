"""Landing of call BI (call_bi.sh's phases 1 and 2 on one H200, unpacked into runs/bi/1/ and 2/), through
../landing.py (its checks, then its copies): the zero-centred RMSNorm's two projects (scaffold/gpu.py's
ZERO_CENTERED_NORMS), each one's suite (phase 2: tests, compute-sanitizer; one GPU, so its two-GPU
cases skipped, as its tests.log says) with its build log, and its benchmark (phase 1, against
Liger-Kernel's gemma mode), into results/norms/<operator>/, where `scaffold results-table` puts their
tables beside the other norms'. No two-family project ran in this call.
Usage (in the repository's venv): python3 land_bi.py [--check]; then `scaffold results-table --write`.
From session 53 on, a later call of call_bi.sh's phases under its own name (CALL=NAME, unpacked into
runs/NAME/1/ and 2/): python3 land_bi.py --call NAME [--check].
(Session 51 landed these records with a version of this script that wrote landing.py's checks out
again, and compared each benchmark's cells with those of the same norm without the zero-centred
weight, whose cells the landed tables have.)"""

import dataclasses
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import landing  # noqa: E402
from landing import gpu  # noqa: E402  (scaffold.gpu, which landing.py imports)

NAMES = list(gpu.ZERO_CENTERED_NORMS)
BI = landing.Landing(
    call=HERE,
    phases=["1", "2"],
    suites={name: "2" for name in NAMES},
    builds={name: f"2/build_{name}.log" for name in NAMES},
    benches={name: ("1", ["liger"]) for name in NAMES},
    two_families=None,
    gpus=1,
)

if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--call"] and len(args) > 1:
        BI = dataclasses.replace(BI, call=HERE.parent / args[1])
        args = args[2:]
    if args not in ([], ["--check"]):  # (a misspelt --check would otherwise land)
        sys.exit("usage: land_bi.py [--call NAME] [--check]")
    landing.main(BI, args)
