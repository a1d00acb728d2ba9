"""Lab AV2's variant (issue 11) of a rendered row-norm project's csrc/row_norm/cuda.cuh: `noshift`, the
backward's fewer blocks a multiprocessor (kStagedRowElementsPerSM, landed by call AV) kept off rows
that start off a vector boundary (N not a multiple of the vector width: kShifted), where call AV's
tables had RMSNorm's 16-bit forward+backward at 8192 x 4095 1.07 to 1.09 times call AP's.
    python3 variant_av.py PROJECT noshift"""

import sys
from pathlib import Path

EDITS = {
    "noshift": [
        (
            "if constexpr (!Norm<float>::kCentered && sizeof(scalar_t) == 2 && kItems > 1 && kStages > 0) {",
            "if constexpr (!Norm<float>::kCentered && sizeof(scalar_t) == 2 && kItems > 1 && kStages > 0 &&\n"
            "                            !kShifted) {",
        )
    ]
}

project, name = Path(sys.argv[1]), sys.argv[2]
path = project / "csrc" / "row_norm" / "cuda.cuh"
text = path.read_text()
for old, new in EDITS[name]:
    if text.count(old) != 1:
        sys.exit(f"{path}: the edit's text is there {text.count(old)} times, not once: {old!r}")
    text = text.replace(old, new)
path.write_text(text)
print(f"{path}: {name} applied")
