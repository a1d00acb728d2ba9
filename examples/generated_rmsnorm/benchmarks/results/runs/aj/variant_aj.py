# ruff: noqa: E501
"""Lab AJ's variants (issue 11) of the residual-add norms' CUDA backward, which reads a row's
grad_residual_out in the output pass, after the row's reduction, from global memory, where each
thread then waits on it (a backward of 69 to 71% of the copy rate at 1024 x 65536 in 16 bits for
the residual-add RMSNorm, against RMSNorm's 84 to 86%: records of call AB, as a helper of session 39
worked them out). Applied to a rendered residual-add project's csrc/row_norm/cuda.cuh:
    python3 variant_aj.py PROJECT pf|st
pf: the row's grad_residual_out vectors read into registers before its sums (kernels that hold the
    row in registers, one pass), with x and grad_out's wait;
st: grad_residual_out staged in shared memory as a third tensor (kStagedTensors 3), copied with the
    row's x and grad_out kStages - 1 rows ahead; its stage read in the output pass. The staged
    kernels' shared memory grows by half (2 stages of 512 threads at four vectors: 192 KiB)."""

import sys
from pathlib import Path

project, variant = sys.argv[1], sys.argv[2]
path = Path(project) / "csrc" / "row_norm" / "cuda.cuh"
text = path.read_text()
SHIFT = "    opmath_t shift = kCentered && active ? backward_shift(x + row_offset, cols) : opmath_t(0);  // see below\n"
GR_LOAD = "            opmath_t gr[kVec];\n            core::load_opmath(load_vector(gr_row + j), gr);\n"
if variant == "pf":
    EDITS = [
        (
            SHIFT,
            SHIFT + "    // Lab AJ (pf): this row's grad_residual_out vectors, read before its sums.\n"
            "    [[maybe_unused]] V gr_items[Norm<opmath_t>::kResidual && kInRegisters ? kItems : 1];\n"
            "    if constexpr (Norm<opmath_t>::kResidual && kInRegisters) {\n"
            "      if (add_grad_residual && active) {\n"
            "        const V* gr_first = reinterpret_cast<const V*>(grad_residual_out + row_offset + head);\n"
            "#pragma unroll\n"
            "        for (int i = 0; i < kItems; ++i) {\n"
            "          const int64_t j = column(0, i);\n"
            "          if (j < col_vecs) gr_items[i] = load_vector(gr_first + j);\n"
            "        }\n"
            "      }\n"
            "    }\n",
        ),
        (
            GR_LOAD,
            "            opmath_t gr[kVec];\n"
            "            if constexpr (Norm<opmath_t>::kResidual && kInRegisters) {\n"
            "              forget(gr_items[i]);\n"
            "              core::load_opmath(gr_items[i], gr);\n"
            "            } else {\n"
            "              core::load_opmath(load_vector(gr_row + j), gr);\n"
            "            }\n",
        ),
    ]
elif variant == "st":
    EDITS = [
        ("constexpr int kStagedTensors = 2;\n", "constexpr int kStagedTensors = 3;  // lab AJ (st)\n"),
        (
            "          copy_async_16(staged(s, 1, i), dy_row + j);\n",
            "          copy_async_16(staged(s, 1, i), dy_row + j);\n"
            "          if (add_grad_residual) {  // lab AJ (st)\n"
            "            copy_async_16(staged(s, 2, i), reinterpret_cast<const V*>(grad_residual_out + r * cols + head) + j);\n"
            "          }\n",
        ),
        (
            GR_LOAD,
            "            opmath_t gr[kVec];\n"
            "            if constexpr (kStaged) {  // lab AJ (st)\n"
            "              core::load_opmath(*staged(stage, 2, i), gr);\n"
            "            } else {\n"
            "              core::load_opmath(load_vector(gr_row + j), gr);\n"
            "            }\n",
        ),
    ]
else:
    sys.exit("usage: variant_aj.py PROJECT pf|st")
for old, new in EDITS:
    if text.count(old) != 1:
        sys.exit(f"{path}: expected one match of {old.splitlines()[0].strip()!r}")
    text = text.replace(old, new)
path.write_text(text)
print(f"patched {path} ({variant})")
