"""Lab BC's variants (issue 11) of a rendered row-norm project's csrc/row_norm/cuda.cuh: `loads`, the
residual-add forward's first read of a pass issues the loads of x and residual (whole vectors, in
every dtype) of up to four items before it adds them and writes their sums. Lab BB0 (session 49,
`../bb0/`) found the residual-add RMSNorm's forward kernels, in their SASS (nvcc 13.0, sm_90a),
reading an item's x and residual only after the previous item's sum was written (float32: four 4-byte
loads of each operand an item, STG.E.128 between items; bfloat16: two LDG.E.128 an item, likewise), so
that a thread has one item's loads in flight at a time, where Liger-Kernel's fused add + RMSNorm
(Triton) issues the whole row's first.
    python3 variant_bc.py PROJECT loads|loads4"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import variants  # noqa: E402

OLD_LOAD = """  const auto load = [&](int pass, bool first_read) {
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if (!valid(pass, i)) continue;
      const int64_t j = column(pass, i);
      if constexpr (kResidual) {
        if (first_read) {
          opmath_t a[kVec], b[kVec];
          read_residual_operand(x_row + j, a);
          read_residual_operand(residual_row + j, b);
#pragma unroll
          for (int e = 0; e < kVec; ++e) a[e] += b[e];
          items[i] = core::round_to<scalar_t, kVec>(a);  // normalized as rounded to x's dtype
          sum_row[j] = items[i];
        } else {
"""
FIRST_READ = """    if constexpr (kResidual) {
      if (first_read) {
        // The pass's loads before its writes of the sum, four items at a time (lab BC).
        constexpr int kGroup = kItems < 4 ? kItems : 4;
#pragma unroll
        for (int g = 0; g < kItems; g += kGroup) {
          V addends[kGroup];
#pragma unroll
          for (int i = g; i < g + kGroup; ++i) {
            if (!valid(pass, i)) continue;
            items[i] = load_vector(x_row + column(pass, i));
            addends[i - g] = load_vector(residual_row + column(pass, i));
          }
#pragma unroll
          for (int i = g; i < g + kGroup; ++i) {
            if (!valid(pass, i)) continue;
            opmath_t a[kVec], b[kVec];
            core::load_opmath_by_words(items[i], a);
            core::load_opmath_by_words(addends[i - g], b);
#pragma unroll
            for (int e = 0; e < kVec; ++e) a[e] += b[e];
            items[i] = core::round_to<scalar_t, kVec>(a);  // normalized as rounded to x's dtype
            sum_row[column(pass, i)] = items[i];
          }
        }
        return;
      }
    }
"""
HEAD = "  const auto load = [&](int pass, bool first_read) {\n"
NEW_LOAD = OLD_LOAD.replace(HEAD, HEAD + FIRST_READ)
# loads: every residual-add build; in groups of four items, so that a build of four or fewer vectors a
# thread issues all its loads first. ptxas (nvcc 13.0, sm_90a; bc/ptxas_bc.txt): the builds of four
# vectors a thread that the shapes take kept to 64 registers or fewer (the residual-add RMSNorm's
# float32 59, bfloat16 62 -> 64; the residual-add LayerNorm's float32 47 -> 62, bfloat16 47 -> 64),
# those of eight took more (float32 64 -> 92 and 88: one block of 512 threads an SM where two
# fit before), so the lab times whether those lose by it. loads4: loads, and the residual-add
# LayerNorm's 16-bit rows of 1025 to 2048 vectors take four vectors a thread on up to kMaxRowThreads
# threads, as the residual-add RMSNorm's do (pick_forward_items), rather than kForwardItems on
# kPreferredRowThreads, whose kernel spills (ptxas: 8 bytes; lab BB0: 196,608 spill requests at
# 4096 x 16384).
LN_ITEMS = "constexpr int kItems = Norm<float>::kCentered && sizeof(scalar_t) == 2 ? kForwardItems : 4;"
EDITS = {
    "loads": [(OLD_LOAD, NEW_LOAD)],
    "loads4": [(OLD_LOAD, NEW_LOAD), (LN_ITEMS, "constexpr int kItems = 4;")],
}

if __name__ == "__main__":
    variants.main(EDITS, sys.argv)
