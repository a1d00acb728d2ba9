"""Lab AR's variant (issue 11) of a rendered row-norm project's csrc/row_norm/cuda.cuh (main after call AP).
    python3 variant_ar.py PROJECT pf
pf: the forward of rows held in registers (kCached) whose weight and bias are not read into registers
before the row's reduction (kPrefetch false: LayerNorm's 16-bit rows of four vectors a thread, every
float32 row of eight) asks for their lines in L1 (prefetch.global.L1, which holds no register) as it
reads the row, so that the loads after the reduction find them there. Call AP's tables had the forward
at 4096 x 1024, where each warp's row is read in one wave and the loads after the reduction lie on its
critical path, slower than a peer's in device time: LayerNorm bfloat16 7.35 us against torch.compile's
6.60, float32 11.27 against Liger-Kernel's 10.41, RMSNorm float32 11.19 against 10.62; RMSNorm's
bfloat16 rows, which read their weight before the reduction, 6.60 against 6.36."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import variants  # noqa: E402

EDITS = {
    "pf": [
        (
            "        if constexpr (kBias) b_items[i] = "
            "load_parameter_vector<P, kShifted>(bias, head, column(0, i));\n"
            "      }\n"
            "    }\n",
            "        if constexpr (kBias) b_items[i] = "
            "load_parameter_vector<P, kShifted>(bias, head, column(0, i));\n"
            "      }\n"
            "    }\n"
            "    if (pass == 0 && kCached && !kPrefetch) {  // lab AR (pf)\n"
            "#pragma unroll\n"
            "      for (int i = 0; i < kItems; ++i) {\n"
            "        if (!valid(0, i)) continue;\n"
            "        const int64_t at = head + column(0, i) * kVec;\n"
            '        asm volatile("prefetch.global.L1 [%0];" ::"l"(weight + at));\n'
            '        if constexpr (kBias) asm volatile("prefetch.global.L1 [%0];" ::"l"(bias + at));\n'
            "      }\n"
            "    }\n",
        ),
    ],
}

if __name__ == "__main__":
    variants.main(EDITS, sys.argv)
