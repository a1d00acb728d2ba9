"""Lab BP's variants (issue 11; prepared in session 55, 2026-12-01) of a rendered LayerNorm project
(csrc/row_norm/cuda.cuh of the bundle made once calls BN and BNZ have landed, ../bn/), for
the CUDA forward's float32 error where a row's first element lies off its mean (lab BO's
../bo/bo/shift_accuracy_cuda.txt: y up to 14 times torch.nn's at 16 standard deviations, 4000 x 1024):
`m3`: the forward kernels (forward_rows and forward_staged_kernel) sum a row about the median of its
first three elements, as the backward does (backward_shift), where main takes the first (row_origin);
each element as row_origin takes it (with the residual add, x + residual rounded to x's dtype).
`mend`: forward_rows mends the mean of a far row (kFarShift) in rows held in registers too (kCached),
as it does in rows of several passes (kMendFar): a vote a row, and a second reduction where far.
`both`: m3 and mend.
Each edit's old text matched exactly once (lab BD's apply).
    python3 variant_bp.py PROJECT m3|mend|both"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import main_with  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"

ORIGIN = "  const opmath_t origin = kCentered ? row_origin{}<kResidual>(x, residual, {}) : opmath_t(0);\n"
ROW_ORIGIN3 = """
// Lab BP's m3: the forward's origin, the median of the row's first three elements (each as
// row_origin takes it; the first alone in rows of fewer), as the backward's shift.
template <bool kResidual, typename scalar_t>
__device__ __forceinline__ at::opmath_type<scalar_t> row_origin3(
    const scalar_t* __restrict__ x, const scalar_t* __restrict__ residual, int64_t offset, int64_t cols) {
  using opmath_t = at::opmath_type<scalar_t>;
  const opmath_t a = row_origin<kResidual>(x, residual, offset);
  if (cols < 3) return a;
  const opmath_t b = row_origin<kResidual>(x, residual, offset + 1);
  const opmath_t c = row_origin<kResidual>(x, residual, offset + 2);
  return fmax(fmin(a, b), fmin(fmax(a, b), c));
}
"""
SUMS = "template <typename T, bool kCentered>\nusing ForwardSums = Sums<T, kCentered ? 2 : 1>;\n"
M3 = [
    (SUMS, SUMS + ROW_ORIGIN3),
    (ORIGIN.format("", "row_offset"), ORIGIN.format("3", "row_offset, cols")),
    (ORIGIN.format("", "row * cols"), ORIGIN.format("3", "row * cols, cols")),
]
MEND = [
    (
        "  constexpr bool kMendFar = kCentered && !kCached;\n",
        "  constexpr bool kMendFar = kCentered;  // lab BP's mend: rows held in registers too\n",
    )
]
EDITS = {"m3": M3, "mend": MEND, "both": M3 + MEND}


if __name__ == "__main__":
    main_with(sys.argv, EDITS, KERNELS)
