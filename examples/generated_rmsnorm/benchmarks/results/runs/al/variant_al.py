# ruff: noqa: E501
"""Lab AL's variants (issue 11) of a rendered LayerNorm project's csrc/row_norm/cuda.cuh, for
LayerNorm's 16-bit forward+backward at 1024 x 65536 (70.8% and 73.4% of the copy rate; the issue
asks 80%). There, after call AK, LayerNorm's backward (forward+backward less forward, bfloat16)
took 150.8 us of device time for three tensors of 128 MiB, RMSNorm's (three stages) 117.6, the
residual-add LayerNorm's (two stages of three tensors) 166.3 for four.
    python3 variant_al.py PROJECT three|knob|shiftpf|fwdknob
three: three stages where RMSNorm takes them (rows that start on a vector boundary, four or more
vectors a thread, no residual add), against the two a centred norm takes on main (kMostStages).
Lab C1 (on call X26's kernels) had three stages within 0.5% in LayerNorm's 16-bit forward+backward
at 1024 x 65536 (float32 3.3% faster) and 1.9 to 4.2% slower at 32768 x 4096, 8192 x 8192 and
4096 x 16384; here it is timed again, alone and with the knob's 256 threads, on today's kernels.
knob: the threads a block that the backward's clusters try first, read at run time from
LAB_AL_BWD_THREADS (256 or 512; unset or anything else: kBackwardClusterThreads, 512, as main), as
lab E2 of the example's benchmarks/results/runs/ tried it (LayerNorm's 16-bit backward at
1024 x 65536 4.6 to 6.2% less time on 256-thread blocks, in clusters of eight, more elsewhere); the
lab applies it to every LayerNorm build.
shiftpf: the backward loads the first three elements of a row group's next row (whose median is
the shift that LayerNorm sums the row about, backward_shift) while it works on the current one,
rather than at the start of each row, where the load's latency (from L2, or from DRAM) stands
between the row's staged data and its sums; the same shift, so the same results.
fwdknob: the forward's vectors a thread for rows of 1025 to 2048 vectors that start on a vector
boundary, with more rows than multiprocessors, read at run time from LAB_AL_FWD_ITEMS (4: on up to
512 threads, 8: on up to 256; unset or anything else: pick_forward_items' choice, as main), for the residual-add
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
            "    const int asked = lab ? std::atoi(lab) : 0;  // 256 or 512; anything else: main's\n"
            "    const int first = asked == 256 || asked == 512 ? asked : kClusterThreads;\n"
            "    const int kTries = first == kMaxRowThreads ? 1 : 2;\n"
            "    const int kThreads[2] = {first, kMaxRowThreads};\n",
        ),
    ],
    "shiftpf": [
        (
            "  for (int64_t base = block_index * rows_per_block; base < rows; base += partial_rows) {\n",
            "  // Lab AL (shiftpf): the first three elements of the group's next row, loaded a row ahead.\n"
            "  scalar_t shift_a{}, shift_b{}, shift_c{};\n"
            "  const auto load_shift = [&](int64_t r) {\n"
            "    if (kCentered && r < rows) {\n"
            "      shift_a = x[r * cols];\n"
            "      if (cols >= 3) {\n"
            "        shift_b = x[r * cols + 1];\n"
            "        shift_c = x[r * cols + 2];\n"
            "      }\n"
            "    }\n"
            "  };\n"
            "  load_shift(block_index * rows_per_block + group);\n"
            "  for (int64_t base = block_index * rows_per_block; base < rows; base += partial_rows) {\n",
        ),
        (
            "    opmath_t shift = kCentered && active ? backward_shift(x + row_offset, cols) : opmath_t(0);  // see below\n",
            "    opmath_t shift = 0;  // lab AL (shiftpf): backward_shift's median, of the loads made a row ahead\n"
            "    if (kCentered && active) {\n"
            "      const opmath_t a = static_cast<opmath_t>(shift_a);\n"
            "      const opmath_t b = static_cast<opmath_t>(shift_b), c = static_cast<opmath_t>(shift_c);\n"
            "      shift = cols < 3 ? a : fmax(fmin(a, b), fmin(fmax(a, b), c));\n"
            "    }\n"
            "    load_shift(row + partial_rows);\n",
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
            "    if (const int items = std::atoi(lab); items == 4 || items == 8) return items;\n"
            "  }\n",
        ),
    ],
}
if variant not in EDITS:
    sys.exit("usage: variant_al.py PROJECT three|knob|shiftpf|fwdknob")
for old, new in EDITS[variant]:
    if text.count(old) != 1:
        sys.exit(f"{path}: expected one match of {old.splitlines()[0].strip()!r}")
    text = text.replace(old, new)
path.write_text(text)
print(f"patched {path} ({variant})")
