"""Lab R3: knobs (environment variables read per call) in a rendered project's row_norm/cuda.cuh."""

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
    "  if (col_vecs > core::kWarp && col_vecs <= static_cast<int64_t>(most) * core::kWarp) {",
    '  if (lab("LAB_FWD_WARP", 1) && col_vecs > core::kWarp && col_vecs <= static_cast<int64_t>(most) * core::kWarp) {',
)
src.rep(
    "static_cast<int64_t>(kMinForwardBlocksPerSM) * core::multiprocessor_count();",
    'static_cast<int64_t>(lab("LAB_SPREAD", kMinForwardBlocksPerSM)) * core::multiprocessor_count();',
)
src.rep(
    "static_cast<int64_t>(kMaxGroupsPerSM) * core::multiprocessor_count();",
    'static_cast<int64_t>(lab("LAB_GROUPS_PER_SM", kMaxGroupsPerSM)) * core::multiprocessor_count();',
)
src.rep("  if (count >= kManySumRows) {", '  if (count >= lab("LAB_MANY_SUM", kManySumRows)) {')
src.save()
