# ruff: noqa: E501
"""Lab AL's variant (issue 11) of LayerNorm's CUDA backward: three stages where RMSNorm takes them
(rows that start on a vector boundary, four or more vectors a thread, no residual add), against the
two that a centred norm takes on main (kMostStages in csrc/row_norm/cuda.cuh). At 1024 x 65536 in
bfloat16 (call AI's table) LayerNorm's backward (forward+backward less forward) took 150.8 us of
device time for three tensors of 128 MiB, RMSNorm's, in three stages, 117.6, the residual-add
LayerNorm's, staging three tensors in two stages since call AK, 166.3 for four; lab C1 had three
stages at 32768 x 4096, 8192 x 8192 and 4096 x 16384 1.9 to 4.2% slower in LayerNorm's 16-bit
forward+backward, but did not time the clusters of 1024 x 65536. Applied to a rendered project's
csrc/row_norm/cuda.cuh:
    python3 variant_al.py PROJECT three|knob|fwdknob
knob: the threads a block that the backward's clusters try first read at run time from
LAB_AL_BWD_THREADS (unset: kBackwardClusterThreads, 512, as main), as lab E2 of the example's
benchmarks/results/runs/ tried it (LayerNorm's 16-bit backward at 1024 x 65536 4.6 to 6.2% less time
on 256-thread blocks, in clusters of eight, but more at other shapes); the lab applies it to both
builds.
fwdknob: the forward's vectors a thread for rows of 1025 to 2048 vectors that start on a vector
boundary, with more rows than multiprocessors, read at run time from LAB_AL_FWD_ITEMS (4: on up to
512 threads, 8: on up to 256; unset: pick_forward_items' choice, as main), for the residual-add
LayerNorm's forward, whose float32 8192 x 8192 and bfloat16 4096 x 16384 cells (88.9% and 89.7% of
the copy rate, call AK) miss the issue's 90%: main gives its float32 rows there four vectors, its
16-bit rows eight (lab F and calls X28 to X30 disagreed on float32 at 8192 x 8192)."""

import sys
from pathlib import Path

project, variant = sys.argv[1], sys.argv[2]
path = Path(project) / "csrc" / "row_norm" / "cuda.cuh"
text = path.read_text()
EDITS = {
    "three": [
        (
            "constexpr int kMostStages = !kCentered && !kResidual && !kShifted && kItems >= 4 ? 3 : 2;\n",
            "constexpr int kMostStages = !kResidual && !kShifted && kItems >= 4 ? 3 : 2;  // lab AL (three)\n",
        )
    ],
    "knob": [
        ("#include <algorithm>\n", "#include <algorithm>\n#include <cstdlib>  // lab AL (knob)\n"),
        (
            "    constexpr int kTries = kClusterThreads == kMaxRowThreads ? 1 : 2;\n"
            "    constexpr int kThreads[2] = {kClusterThreads, kMaxRowThreads};\n",
            "    // Lab AL (knob): LAB_AL_BWD_THREADS, the backward's first try.\n"
            '    const char* lab = kClusterThreads == kMaxRowThreads ? std::getenv("LAB_AL_BWD_THREADS") : nullptr;\n'
            "    const int first = lab ? std::atoi(lab) : kClusterThreads;\n"
            "    const int kTries = first == kMaxRowThreads ? 1 : 2;\n"
            "    const int kThreads[2] = {first, kMaxRowThreads};\n",
        ),
    ],
    "fwdknob": [
        ("#include <algorithm>\n", "#include <algorithm>\n#include <cstdlib>  // lab AL (fwdknob)\n"),
        (
            "int pick_forward_items(int64_t rows, int64_t col_vecs) {\n",
            "int pick_forward_items(int64_t rows, int64_t col_vecs) {\n"
            '  if (const char* lab = std::getenv("LAB_AL_FWD_ITEMS"); lab && !kShifted &&  // lab AL (fwdknob)\n'
            "      col_vecs > 4 * kPreferredRowThreads && col_vecs <= 4 * kMaxRowThreads &&\n"
            "      rows > core::multiprocessor_count()) {\n"
            "    return std::atoi(lab);\n"
            "  }\n",
        ),
    ],
}
if variant not in EDITS:
    sys.exit("usage: variant_al.py PROJECT three|knob|fwdknob")
for old, new in EDITS[variant]:
    if text.count(old) != 1:
        sys.exit(f"{path}: expected one match of {old.splitlines()[0].strip()!r}")
    text = text.replace(old, new)
path.write_text(text)
print(f"patched {path} ({variant})")
