"""Landing of call AV (session 45: ../ap/call_ap.sh's phases 1 to 3 run as `CALL=av`, on two H200s,
unpacked into runs/av/1/ to 3/), for the backward's blocks a multiprocessor of the uncentered norms'
staged 16-bit rows (kStagedRowElementsPerSM in csrc/row_norm/cuda.cuh; labs AT7 and AU1). The
records are laid out as call AP's (../ap/land_ap.py says which phase gives which), so the same
description with this call's folder.
Usage (in the repository's venv): python3 land_av.py [--check]; then `scaffold results-table --write`."""

import sys
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "ap"))
import landing  # noqa: E402
from land_ap import AP  # noqa: E402

AV = replace(AP, call=HERE)

if __name__ == "__main__":
    landing.main(AV, sys.argv[1:])
