# ruff: noqa: E501
"""Lab AN's variants (issue 11) of a rendered row-norm project's csrc/row_norm/cuda.cuh, after lab AM
(runs/am/): its `am` build (words, invn and idx32 of ../am/variant_am.py) took the bfloat16 LayerNorm
forward+backward at 1024 x 65536 from 232.8 to 221.6 us (Nsight Compute: 13% fewer instructions, 8%
fewer active cycles), but invn's 1 / N, held in a register, added spills to some 16-bit kernels (nvcc
13.0, sm_90a, full translation units), and the residual-add LayerNorm's float16 forward+backward at
4096 x 16384 took 1.027 of main's.
    python3 variant_an.py PROJECT invnarg|rs   (with ../am/variant_am.py's words and idx32 first)
invnarg: invn's 1 / N, but as a kernel argument computed on the host in the math type (the same value
as the device's division), which the kernel reads from the constant bank rather than a register.
rs: the backward's row sums (Sums of 2 or 4 values) over a warp's 32 lanes by a reduce-scatter (each
lane keeps half of its values, adding its partner's copy of that half, until it holds one value), a
butterfly on that one value, and a gather of the 2 or 4 values from the lanes that hold them: 10
shuffles, 6 additions and 6 selections for LayerNorm's 4 values against 20 shuffles and 20 additions,
7 shuffles, 5 additions and 2 selections for RMSNorm's 2 against 10 and 10 (wherever a row spans at
least a warp; its second step, over the block's warps, too). Every lane still ends with the same bits."""

import sys
from pathlib import Path

project, variant = sys.argv[1], sys.argv[2]
path = Path(project) / "csrc" / "row_norm" / "cuda.cuh"
text = path.read_text()
DIVISIONS = [
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
]
SCATTER = """// Lab AN (rs): the sum of a Sums of 2 or 4 values over a warp's 32 lanes, the same bits in every lane:
// a reduce-scatter to one value a lane, a butterfly on it, then a gather.
template <typename S>
constexpr bool kScatters = false;
template <typename T, int K>
constexpr bool kScatters<Sums<T, K>> = K == 2 || K == 4;

template <typename T, int K>
__device__ __forceinline__ Sums<T, K> warp_sum_scattered(const Sums<T, K>& s) {
  const unsigned lane = threadIdx.x % core::kWarp;
  const bool odd = lane & 1u;
  T value;
  if constexpr (K == 4) {
    // Lane pairs: the even lane keeps values 0 and 1, the odd 2 and 3; then pairs of pairs: the lane
    // with bit 1 clear keeps the first of its two, the other the second. Lane l then holds value
    // 2 * (l & 1) + ((l >> 1) & 1).
    T keep0 = odd ? s.v[2] : s.v[0], keep1 = odd ? s.v[3] : s.v[1];
    const T send0 = odd ? s.v[0] : s.v[2], send1 = odd ? s.v[1] : s.v[3];
    keep0 += __shfl_xor_sync(0xffffffffu, send0, 1);
    keep1 += __shfl_xor_sync(0xffffffffu, send1, 1);
    const bool second = lane & 2u;
    value = second ? keep1 : keep0;
    value += __shfl_xor_sync(0xffffffffu, second ? keep0 : keep1, 2);
  } else {
    value = odd ? s.v[1] : s.v[0];  // lane l holds value l & 1
    value += __shfl_xor_sync(0xffffffffu, odd ? s.v[0] : s.v[1], 1);
    value += __shfl_xor_sync(0xffffffffu, value, 2);
  }
  value += __shfl_xor_sync(0xffffffffu, value, 4);
  value += __shfl_xor_sync(0xffffffffu, value, 8);
  value += __shfl_xor_sync(0xffffffffu, value, 16);
  Sums<T, K> out;
  if constexpr (K == 4) {
    out.v[0] = __shfl_sync(0xffffffffu, value, 0);
    out.v[1] = __shfl_sync(0xffffffffu, value, 2);
    out.v[2] = __shfl_sync(0xffffffffu, value, 1);
    out.v[3] = __shfl_sync(0xffffffffu, value, 3);
  } else {
    out.v[0] = __shfl_sync(0xffffffffu, value, 0);
    out.v[1] = __shfl_sync(0xffffffffu, value, 1);
  }
  return out;
}

"""
EDITS = {
    "invnarg": [
        (
            "                    int64_t rows, int64_t cols, int row_threads, int passes, int cluster, int staged_tensors,\n"
            "                    at::opmath_type<scalar_t> eps) {\n",
            "                    int64_t rows, int64_t cols, int row_threads, int passes, int cluster, int staged_tensors,\n"
            "                    at::opmath_type<scalar_t> eps, at::opmath_type<scalar_t> inv_n) {  // lab AN (invnarg)\n",
        ),
        (
            "                   g.row_threads, layout.passes, cluster, tensors, static_cast<opmath_t>(eps));\n",
            "                   g.row_threads, layout.passes, cluster, tensors, static_cast<opmath_t>(eps),\n"
            "                   opmath_t(1) / static_cast<opmath_t>(cols));  // lab AN (invnarg)\n",
        ),
        *DIVISIONS,
    ],
    "rs": [
        (
            "// The combination over the row_threads threads of each row group, the same bits in every thread of\n",
            SCATTER
            + "// The combination over the row_threads threads of each row group, the same bits in every thread of\n",
        ),
        (
            "  const int width = row_threads < core::kWarp ? row_threads : core::kWarp;\n"
            "  for (int offset = width / 2; offset > 0; offset /= 2)\n"
            "    value = S::template combine_lanes<kTryEqual>(value, value.shuffle_xor(offset));\n"
            "  if (row_threads <= core::kWarp) return value;\n",
            "  const int width = row_threads < core::kWarp ? row_threads : core::kWarp;\n"
            "  if constexpr (kScatters<S>) {  // lab AN (rs)\n"
            "    if (width == core::kWarp) {\n"
            "      value = warp_sum_scattered(value);\n"
            "    } else {\n"
            "      for (int offset = width / 2; offset > 0; offset /= 2) value = S::combine(value, value.shuffle_xor(offset));\n"
            "    }\n"
            "  } else {\n"
            "    for (int offset = width / 2; offset > 0; offset /= 2)\n"
            "      value = S::template combine_lanes<kTryEqual>(value, value.shuffle_xor(offset));\n"
            "  }\n"
            "  if (row_threads <= core::kWarp) return value;\n",
        ),
        (
            "  value = lane < warps ? smem[lane] : S{};\n"
            "  for (int offset = core::kWarp / 2; offset > 0; offset /= 2) {\n"
            "    value = S::template combine_lanes<kTryEqual>(value, value.shuffle_xor(offset));\n"
            "  }\n",
            "  value = lane < warps ? smem[lane] : S{};\n"
            "  if constexpr (kScatters<S>) {  // lab AN (rs)\n"
            "    value = warp_sum_scattered(value);\n"
            "  } else {\n"
            "    for (int offset = core::kWarp / 2; offset > 0; offset /= 2) {\n"
            "      value = S::template combine_lanes<kTryEqual>(value, value.shuffle_xor(offset));\n"
            "    }\n"
            "  }\n",
        ),
    ],
}
if variant not in EDITS:
    sys.exit("usage: variant_an.py PROJECT invnarg|rs")
for old, new in EDITS[variant]:
    if text.count(old) != 1:
        sys.exit(f"{path}: expected one match of {old.splitlines()[0].strip()!r}")
    text = text.replace(old, new)
path.write_text(text)
print(f"patched {path} ({variant})")
