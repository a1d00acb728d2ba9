# ruff: noqa: E501
"""Lab AM's variants (issue 11) of a rendered row-norm project's csrc/row_norm/cuda.cuh: fewer
instructions in the backward kernel, for LayerNorm's 16-bit forward+backward at 1024 x 65536 (70.8%
and 73.4% of the copy rate after call AK; the issue asks 80%). In lab L3's Nsight Compute
(runs/l/l3/), the bfloat16 LayerNorm backward there took 1.25 times RMSNorm's active cycles and
issued about 36 warp instructions an element against RMSNorm's 29, both at about 6 cycles a warp
instruction with 16 warps a multiprocessor (one block of 512 threads, clusters of four): its time goes
with its instructions. The SASS of this machine's nvcc 13.0 (cuobjdump of the PyPI wheel
nvidia-cuda-cuobjdump 13.5) shows where they go: each bfloat16 element of x and grad_out read from
the stage costs two instructions where its word is odd (PRMT, then a shift), in both passes; each row's
four divisions by N take a reciprocal and its correction each; each row's copies into the stages
recompute 64-bit shared-memory indices.
    python3 variant_am.py PROJECT words|invn|idx32|three
words: x, grad_out and grad_residual_out's vectors (in registers, or read whole from the stage) are
converted a 32-bit word at a time (core::load_opmath_by_words: one shift or one mask an element, exact)
in the backward's two passes, as the forward converts vectors already in registers. (Calls X5 and X6
converted every vector a word at a time, reading global memory word by word, and lost: lab P2; here
the vectors are already whole.)
invn: the row's means are its sums times 1 / N, computed once, rather than its sums divided by N
(the same where N is a power of two; otherwise within an ulp).
idx32: the stages' vector indices in 32-bit arithmetic, with the thread's own part computed once.
three: three stages for LayerNorm too (lab AL's `three`), to be timed with the others."""

import sys
from pathlib import Path

project, variant = sys.argv[1], sys.argv[2]
path = Path(project) / "csrc" / "row_norm" / "cuda.cuh"
text = path.read_text()
EDITS = {
    "words": [
        (
            "        core::load_opmath(x_at(i, j), f);\n        core::load_opmath(dy_at(i, j), g);\n",
            "        core::load_opmath_by_words(x_at(i, j), f);  // lab AM (words)\n        core::load_opmath_by_words(dy_at(i, j), g);\n",
        ),
        (
            "          core::load_opmath(x_at(i, j), f);\n          core::load_opmath(dy_at(i, j), g);\n",
            "          core::load_opmath_by_words(x_at(i, j), f);  // lab AM (words)\n          core::load_opmath_by_words(dy_at(i, j), g);\n",
        ),
        (
            "            core::load_opmath(staged_grad_residual ? *staged(stage, 2, i) : load_vector(gr_row + j), gr);\n",
            "            core::load_opmath_by_words(staged_grad_residual ? *staged(stage, 2, i) : load_vector(gr_row + j), gr);\n",
        ),
    ],
    "invn": [
        (
            "  [[maybe_unused]] bool first_row = true;\n  int stage = 0;\n",
            "  const opmath_t inv_n = opmath_t(1) / static_cast<opmath_t>(cols);  // lab AM (invn)\n"
            "  [[maybe_unused]] bool first_row = true;\n  int stage = 0;\n",
        ),
        (
            "    const opmath_t n = static_cast<opmath_t>(cols);\n    if constexpr (kCentered) {\n      // A row whose",
            "    if constexpr (kCentered) {\n      // A row whose",
        ),
        (
            "      const opmath_t d_mean = sums.v[0] / n;\n      if (__any_sync(0xffffffffu, lies_far(d_mean, sums.v[1] / n - d_mean * d_mean))) {",
            "      const opmath_t d_mean = sums.v[0] * inv_n;\n      if (__any_sync(0xffffffffu, lies_far(d_mean, sums.v[1] * inv_n - d_mean * d_mean))) {",
        ),
        (
            "      const opmath_t d_mean = sums.v[0] / n;\n      const opmath_t spread = sums.v[1] / n - d_mean * d_mean;",
            "      const opmath_t d_mean = sums.v[0] * inv_n;\n      const opmath_t spread = sums.v[1] * inv_n - d_mean * d_mean;",
        ),
        (
            "      c2 = sums.v[2] / n;\n      c1 = rstd * (sums.v[3] - d_mean * sums.v[2]) / n;",
            "      c2 = sums.v[2] * inv_n;\n      c1 = rstd * (sums.v[3] - d_mean * sums.v[2]) * inv_n;",
        ),
        (
            "      rstd = opmath_t(1) / sqrt(sums.v[0] / n + eps);\n      c2 = 0;\n      c1 = rstd * sums.v[1] / n;",
            "      rstd = opmath_t(1) / sqrt(sums.v[0] * inv_n + eps);\n      c2 = 0;\n      c1 = rstd * sums.v[1] * inv_n;",
        ),
    ],
    "idx32": [
        (
            "  const auto staged = [&](int s, int tensor, int i) {\n"
            "    return reinterpret_cast<V*>(staging) +\n"
            "           ((static_cast<int64_t>(s) * staged_tensors + tensor) * blockDim.x + group * row_threads) * kItems +\n"
            "           static_cast<int64_t>(i) * row_threads + t;\n"
            "  };\n",
            "  const int staged_slot = group * row_threads * kItems + t;  // lab AM (idx32)\n"
            "  const int staged_stride = static_cast<int>(blockDim.x) * kItems;\n"
            "  const auto staged = [&](int s, int tensor, int i) {\n"
            "    return reinterpret_cast<V*>(staging) + ((s * staged_tensors + tensor) * staged_stride + staged_slot + i * row_threads);\n"
            "  };\n",
        )
    ],
    "three": [
        (
            "constexpr int kMostStages = !kCentered && !kResidual && !kShifted && kItems >= 4 ? 3 : 2;\n",
            "constexpr int kMostStages = !kResidual && !kShifted && kItems >= 4 ? 3 : 2;  // lab AM (three)\n",
        )
    ],
}
if variant not in EDITS:
    sys.exit("usage: variant_am.py PROJECT words|invn|idx32|three")
for old, new in EDITS[variant]:
    if text.count(old) != 1:
        sys.exit(f"{path}: expected one match of {old.splitlines()[0].strip()!r}")
    text = text.replace(old, new)
path.write_text(text)
print(f"patched {path} ({variant})")
