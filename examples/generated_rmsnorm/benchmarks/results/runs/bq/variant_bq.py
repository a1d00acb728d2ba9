# ruff: noqa: E501
"""Lab BQ's variants (issue 11; prepared in session 56, 2026-12-01) of a rendered residual-add LayerNorm
project (csrc/row_norm/cuda.cuh as call BN landed it, cff6f03), for the one goal cell call BN's tables
miss: the residual-add LayerNorm's float32 forward at 4096 x 16384, 89.5% of the copy rate (goal 90;
call BH2's tables 90.7%). Its rows take eight vectors a thread on 512 threads, held in registers
(pick_forward_items), whose residual add reads x and residual item after item (kLoadsFirst leaves
the centred norms' rows of eight vectors out): lab BD's `eight` (../bd/, on older sources) had them
loaded first at 0.948 of the forward's time at 4096 x 16384, but 1.081 at 4096 x 1024, where the same
kernel takes a row a warp.
`eight`: lab BD's eight on today's sources: kLoadsFirst takes the centred norms' float32 rows of eight
vectors held in registers too, in every geometry.
`eightb`: the same loads first in rows of more than a warp alone (kWideRows: a second build of that
kernel, launched where a row takes more than a warp and no cluster), so that 4096 x 1024 keeps
today's kernel (and so does the build for rows read an element at a time, kVec 1, which the
edits reach too: a wide build of it is added). Other norms, dtypes and item counts launch the same
kernels as before. ptxas (nvcc
13.0, sm_90a, on the CPU machine: ptxas_bq.txt) gives that kernel with its loads first 108 registers
a thread (64 item after item): one block of 512 threads a multiprocessor where it had two.
`eightb2`: eightb, its wide build capped for two blocks a multiprocessor (forward_kernel_two_blocks'
bounds, 64 registers a thread), as kTwoForwardBlocks does for the rows without the add.
Each edit's old text matched exactly once (lab BD's apply).
    python3 variant_bq.py PROJECT eight|eightb|eightb2"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import main_with  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"

EIGHT_RULE = "        : std::is_same_v<scalar_t, float> && !kCentered && kCached && !kShifted;\n"
EIGHT = [
    (EIGHT_RULE, "        : std::is_same_v<scalar_t, float> && kCached && !kShifted;  // lab BQ's eight\n")
]

WIDE_RULE = """
// Lab BQ's eightb: the centred norms' float32 rows of more than four vectors a thread, held in
// registers from a vector boundary, loaded first where a row takes more than a warp (kWideRows).
template <typename scalar_t, bool kCentered, int kItems, bool kCached, bool kShifted>
constexpr bool kLoadsFirstWide =
    std::is_same_v<scalar_t, float> && kCentered && kItems > 4 && kCached && !kShifted;
"""
ROWS_HEAD = """          bool kCached, bool kShifted>
__device__ __forceinline__ void forward_rows("""
LOADS_TEST = "    if constexpr (kResidual && kLoadsFirst<scalar_t, kCentered, kItems, kCached, kShifted>) {\n"
KERNEL = """          bool kCached, bool kShifted>
__global__ void __launch_bounds__(kMaxRowThreads{bounds}) {name}(ROW_NORM_FORWARD_PARAMETERS) {{
  forward_rows<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted{wide}>("""
FOR_HEAD = """          bool kCached, bool kShifted>
constexpr auto forward_kernel_for() {"""
FOR_BODY = "    return {name}<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted{wide}>;\n"
LAUNCH = "          launch(forward_kernel_for<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted>(), blocks,\n"
LAUNCH_WIDE = """          auto kernel = forward_kernel_for<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted>();
          if constexpr (Norm<float>::kResidual &&
                        kLoadsFirstWide<scalar_t, Norm<float>::kCentered, kItems, kCached, kShifted>) {
            if (g.row_threads > core::kWarp && cluster == 1)  // lab BQ's eightb
              kernel = forward_kernel_for<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted, true>();
          }
          launch(kernel, blocks,
"""
EIGHTB = [
    (EIGHT_RULE, EIGHT_RULE + WIDE_RULE),
    (ROWS_HEAD, ROWS_HEAD.replace("bool kShifted>", "bool kShifted, bool kWideRows = false>")),
    (
        LOADS_TEST,
        "    if constexpr (kResidual && (kLoadsFirst<scalar_t, kCentered, kItems, kCached, kShifted> ||\n"
        "                                (kWideRows && kLoadsFirstWide<scalar_t, kCentered, kItems, kCached, kShifted>))) {\n",
    ),
    *[
        (
            KERNEL.format(bounds=bounds, name=name, wide=""),
            KERNEL.format(bounds=bounds, name=name, wide=", kWideRows").replace(
                "bool kShifted>", "bool kShifted, bool kWideRows = false>"
            ),
        )
        for bounds, name in (("", "forward_kernel"), (", 2", "forward_kernel_two_blocks"))
    ],
    (FOR_HEAD, FOR_HEAD.replace("bool kShifted>", "bool kShifted, bool kWideRows = false>")),
    *[
        (FOR_BODY.format(name=name, wide=""), FOR_BODY.format(name=name, wide=", kWideRows"))
        for name in ("forward_kernel_two_blocks", "forward_kernel")
    ],
    (LAUNCH, LAUNCH_WIDE),
]
TWO_BLOCKS = "  if constexpr (kTwoForwardBlocks<scalar_t, kVec, kItems, kCached, Norm<float>::kResidual>) {\n"
EIGHTB2 = [*EIGHTB, (TWO_BLOCKS, TWO_BLOCKS.replace("if constexpr (", "if constexpr (kWideRows || "))]
EDITS = {"eight": EIGHT, "eightb": EIGHTB, "eightb2": EIGHTB2}


if __name__ == "__main__":
    main_with(sys.argv, EDITS, KERNELS)
