"""Lab AV2's variant (issue 11) of a rendered row-norm project's csrc/row_norm/cuda.cuh: `noshift`, the
backward's fewer blocks a multiprocessor (kStagedRowElementsPerSM, landed by call AV) kept off rows
that start off a vector boundary (N not a multiple of the vector width: kShifted), where call AV's
tables had RMSNorm's 16-bit forward+backward at 8192 x 4095 1.07 to 1.09 times call AP's.
    python3 variant_av.py PROJECT noshift
(Lab AV2 ran a copy of ../variants.py's loop written out here, with the same edit; it now calls it.)"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import variants  # noqa: E402

EDITS = {
    "noshift": [
        (
            "if constexpr (!Norm<float>::kCentered && sizeof(scalar_t) == 2 && kItems > 1 && kStages > 0) {",
            "if constexpr (!Norm<float>::kCentered && sizeof(scalar_t) == 2 && kItems > 1 && kStages > 0 &&\n"
            "                            !kShifted) {",
        )
    ]
}

if __name__ == "__main__":
    variants.main(EDITS, sys.argv)
