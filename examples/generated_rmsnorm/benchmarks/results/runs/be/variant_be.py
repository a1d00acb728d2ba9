"""Lab BE's variants (issue 11) of a rendered row-norm project.
- rule2: the residual-add forward's loads-first rule as the template renders it in the working tree
  that lab BE was prepared in (rule2.diff: `git diff -U2` of the RMSNorm example's
  csrc/row_norm/cuda.cuh and tests/suites/row_norm.py against main, applied hunk by hunk as
  ../bd/variant_bd.py does): lab BD's rule, and the residual-add RMSNorm's float32 rows of eight
  vectors a thread loading all eight first (lab BD's eight).
- noprefetch: rule2, the residual-add RMSNorm's weight read where the output needs it instead of
  into registers before the reduction (kPrefetch): whether that weight's loads, issued beside the
  row's, hold back its 16-bit forward, which trails Liger-Kernel's by 4 to 6% (lab BB0) in the same
  geometry and occupancy (ncu_bb0s.txt: 22.9 cycles an issue against 27.7, DRAM 78% against 83%).
- latesum: rule2, the residual-add forward's sum x + residual written with the output, after the
  row's reduction, where the row stays in registers (kCached), instead of as it is read: only loads
  then come before the reduction, as in Liger-Kernel's Triton source.
- warpplain: rows of a warp or fewer threads take nvcc's own choice of registers (forward_kernel)
  where kTwoForwardBlocks gives the build capped at 64: lab BB0's REST run had LayerNorm's float32
  forward at 4096 x 1024 (a warp a row, eight vectors a thread) spilling (16,384 spill requests) and
  at 10.4 to 10.5 us against Liger-Kernel's 9.8 to 10.0 (ncu_bb0r.txt).
- small32: rows of a warp or fewer threads on blocks of 32 threads (kSmallRowBlockThreads 128): lab
  BB0's REST run had LayerNorm's bfloat16 forward at 4096 x 1024 on 1,024 blocks of 128 threads at
  7.3 to 7.5 us, its SMs active 70 to 79% of the time, against torch.compile's 6.9 on 4,096 blocks
  of 32.
    python3 variant_be.py PROJECT rule2|noprefetch|latesum|warpplain|small32"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import apply, hunks  # noqa: E402

PREFETCH = (
    "  constexpr bool kPrefetch =\n      kCached && (",
    "  constexpr bool kPrefetch =\n      !(kResidual && !kCentered) && kCached && (",
)
LATE_SUM = [
    (
        "    items[i] = core::round_to<scalar_t, kVec>(a);\n    sum_row[j] = items[i];\n  };\n",
        "    items[i] = core::round_to<scalar_t, kVec>(a);\n"
        "    if constexpr (!kCached) sum_row[j] = items[i];\n  };\n",
    ),
    (
        "        forget(items[i]);\n        core::load_opmath_by_words(items[i], f);\n",
        "        if constexpr (kResidual && kCached) sum_row[j] = items[i];\n"
        "        forget(items[i]);\n        core::load_opmath_by_words(items[i], f);\n",
    ),
]
WARP_PLAIN = (
    "          launch(forward_kernel_for<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted>(), "
    "blocks,\n",
    "          launch(g.row_threads <= core::kWarp\n"
    "                     ? &forward_kernel<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted>\n"
    "                     : forward_kernel_for<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted>(),\n"
    "                 blocks,\n",
)
SMALL32 = ("constexpr int kSmallRowBlockThreads = 128;", "constexpr int kSmallRowBlockThreads = 32;")
CUDA = "csrc/row_norm/cuda.cuh"


def edits(variant: str) -> dict[str, list[tuple[str, str]]]:
    if variant in ("warpplain", "small32"):
        return {CUDA: [WARP_PLAIN if variant == "warpplain" else SMALL32]}
    found = hunks((Path(__file__).parent / "rule2.diff").read_text())
    if variant == "noprefetch":
        found[CUDA].append(PREFETCH)
    elif variant == "latesum":
        found[CUDA].extend(LATE_SUM)
    return found


def main(argv: list[str]) -> None:
    variants = ("rule2", "noprefetch", "latesum", "warpplain", "small32")
    if len(argv) != 3 or argv[2] not in variants:
        sys.exit(f"usage: {Path(argv[0]).name} PROJECT {'|'.join(variants)}")
    apply(argv[1], argv[2], edits(argv[2]))


if __name__ == "__main__":
    main(sys.argv)
