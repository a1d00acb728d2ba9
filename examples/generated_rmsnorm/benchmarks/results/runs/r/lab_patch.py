"""Lab R: knobs (environment variables read per call) in a rendered project's row_norm/cuda.cuh."""

# The C++ lines this inserts are kept as they ran, some longer than the line limit.
# ruff: noqa: E501

import sys

from lab_source import Source

src = Source(sys.argv[1])
src.rep(
    "constexpr int kMaxRowThreads = 512;",
    "inline int lab(const char* n, int d) { const char* v = std::getenv(n); return v ? std::atoi(v) : d; }\nconstexpr int kMaxRowThreads = 512;",
)
src.rep(
    """  if (col_vecs > core::kWarp && col_vecs <= static_cast<int64_t>(most) * core::kWarp) {""",
    """  if (lab(most == kForwardItems ? "LAB_FWD_WARP" : "LAB_BWD_WARP", 1) &&
      col_vecs > core::kWarp && col_vecs <= static_cast<int64_t>(most) * core::kWarp) {""",
)
src.rep("* kMinGroupRows;", '* lab("LAB_MIN_ROWS", 1);')
# sum kernel: rows in flight as a template parameter, 8 or 32 chosen by LAB_SUM_ROWS
src.rep(
    """template <typename param_t, typename opmath_t>
__global__ void sum_rows_kernel(""",
    """template <typename param_t, typename opmath_t, int kSumRowsInFlight>
__global__ void sum_rows_kernel(""",
)
src.rep("constexpr int kSumRowsInFlight = 8;", "")
old_launch = src.text[
    src.text.index("            const dim3 sum_block(kSumColumns, kSumRowsInFlight);") : src.text.index(
        "          };\n          // Staged where"
    )
]
new_launch = """            const int64_t sum_blocks = (cols + kSumColumns - 1) / kSumColumns;
            const at::Tensor sums = partial.view({params, partial_rows * cols});
            const auto sum = [&](auto rows_c, const at::Tensor& part, at::Tensor& grad) {
              constexpr int kR = decltype(rows_c)::value;
              sum_rows_kernel<param_t, opmath_t, kR><<<static_cast<unsigned>(sum_blocks), dim3(kSumColumns, kR), 0, stream>>>(
                  part.const_data_ptr<opmath_t>(), grad.mutable_data_ptr<param_t>(), partial_rows, cols);
              C10_CUDA_KERNEL_LAUNCH_CHECK();
            };
            const bool wide = lab("LAB_SUM_ROWS", 8) == 32;
            if (wide) sum(std::integral_constant<int, 32>{}, sums[0], grad_weight); else sum(std::integral_constant<int, 8>{}, sums[0], grad_weight);
            if constexpr (Norm<float>::kBias) {
              if (wide) sum(std::integral_constant<int, 32>{}, sums[1], grad_bias); else sum(std::integral_constant<int, 8>{}, sums[1], grad_bias);
            }
"""
src.text = src.text.replace(old_launch, new_launch)
src.save()
