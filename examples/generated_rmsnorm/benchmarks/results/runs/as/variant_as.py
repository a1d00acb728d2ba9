# ruff: noqa: E501
"""Lab AS's variants (issue 11) of a rendered row-norm project's csrc/row_norm/cuda.cuh (main after call AP),
for the forward of short rows held in registers, where call AP's tables had LayerNorm slower than a peer
in device time (4096 x 1024: bfloat16 7.35 us against torch.compile's 6.60, float16 7.19 against 6.62,
float32 11.27 against Liger-Kernel's 10.41), while RMSNorm's bfloat16 forward, which reads its weight
before the row's reduction, took 6.60 against 6.36. Lab AR's base runs (../ar/summary.txt) put the
copy-rate gaps at about 1.2 us (LayerNorm bfloat16), 0.3 (RMSNorm bfloat16), 1.8 (LayerNorm float32)
and 1.0 (RMSNorm float32): the loads after the reduction and LayerNorm's reduction each look to cost
some tenths of a microsecond.
    python3 variant_as.py PROJECT pr|tp
pr: rows of at most four vectors a thread read weight and bias into registers before the reduction
    where they take at most kPrefetchWeightBytes (128) a thread, as RMSNorm's 16-bit weight alone does
    (LayerNorm's 16-bit rows of four vectors: 128 bytes); others as before.
tp: the centred norms' rows held in registers by at most a warp (no cluster, not shifted) take their
    statistics in two looks at the registers, each reduced by a butterfly of one sum: the sum of
    x - origin, then, about the mean so found, the squares. In place of Chan's combination of
    (count, mean, m2) in every step of the butterfly (a vote, three shuffles and a chain of products a
    step); the variance is then that of a true two-pass sum."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import variants  # noqa: E402

EDITS = {
    "pr": [
        (
            "      kCached && (kParameterBytes <= kPrefetchParameterBytes ||\n"
            "                  (!kBias && sizeof(param_t) == 2 && kParameterBytes <= kPrefetchWeightBytes));\n",
            "      kCached && (kParameterBytes <= kPrefetchParameterBytes ||\n"
            "                  (!kBias && sizeof(param_t) == 2 && kParameterBytes <= kPrefetchWeightBytes) ||\n"
            "                  (kItems <= 4 && kParameterBytes <= kPrefetchWeightBytes));  // lab AS (pr)\n",
        ),
    ],
    "tp": [
        (
            "  stats = row_reduce<!kShifted>(stats, row_threads, smem);  // shifted rows: some threads hold an edge\n",
            "  bool two_looks = false;  // lab AS (tp)\n"
            "  if constexpr (kCentered && kCached && !kShifted) two_looks = row_threads <= core::kWarp && cluster == 1;\n"
            "  if (two_looks) {\n"
            "    Sums<opmath_t, 1>* no_smem = nullptr;  // (a row within a warp: row_reduce takes no shared memory)\n"
            "    // The sum over the row of x - about, or (squares_c true) of its squares.\n"
            "    const auto look = [&](opmath_t about, auto squares_c) {\n"
            "      Sums<opmath_t, 1> sum{};\n"
            "#pragma unroll\n"
            "      for (int i = 0; i < kItems; ++i) {\n"
            "        if (!valid(0, i)) continue;\n"
            "        opmath_t f[kVec];\n"
            "        forget(items[i]);\n"
            "        core::load_opmath_by_words(items[i], f);\n"
            "#pragma unroll\n"
            "        for (int e = 0; e < kVec; ++e) {\n"
            "          const opmath_t d = f[e] - about;\n"
            "          sum.v[0] += decltype(squares_c)::value ? d * d : d;\n"
            "        }\n"
            "      }\n"
            "      return row_reduce(sum, row_threads, no_smem).v[0];\n"
            "    };\n"
            "    const opmath_t mean_d = look(origin, std::false_type{}) / static_cast<opmath_t>(cols);\n"
            "    const opmath_t m2 = look(origin + mean_d, std::true_type{});\n"
            "    stats = {static_cast<opmath_t>(cols), mean_d, m2};\n"
            "  } else {\n"
            "    stats = row_reduce<!kShifted>(stats, row_threads, smem);  // shifted rows: some threads hold an edge\n"
            "  }\n",
        ),
    ],
}

if __name__ == "__main__":
    variants.main(EDITS, sys.argv)
