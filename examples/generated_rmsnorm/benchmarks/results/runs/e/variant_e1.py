# ruff: noqa: E501
"""Lab E1: makes a rendered project's csrc/row_norm/cuda.cuh choose, at run time, from environment
variables that only this lab reads:
LAB_ROWS (1, 2 or 4): the staged forward's rows a cluster, the largest of those up to it that fits;
LAB_BWD_THREADS (256 or 512): the threads the backward's clusters take a block first (pick_cluster).
python3 variant_e1.py PROJECT"""

import sys
from pathlib import Path

path = Path(sys.argv[1]) / "csrc/row_norm/cuda.cuh"
s = path.read_text()


def rep(old, new):
    global s
    assert s.count(old) == 1, old[:60]
    s = s.replace(old, new)


rep(
    "constexpr int kBackwardClusterThreads = kMaxRowThreads;\n",
    """constexpr int kBackwardClusterThreads = kMaxRowThreads;
inline int lab_env(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}
""",
)
rep(
    "    const int split = pick_cluster(col_vecs, kMost, kClusterThreads);",
    """    const int split = pick_cluster(
        col_vecs, kMost, kClusterThreads == kMaxRowThreads ? lab_env("LAB_BWD_THREADS", kMaxRowThreads) : kClusterThreads);""",
)
rep(
    """          if (items == 0 && (staged(std::integral_constant<int, kStagedRows>{}) ||
                             staged(std::integral_constant<int, 1>{})))
            return;""",
    """          const int lab_rows = lab_env("LAB_ROWS", kStagedRows);
          if (items == 0 && ((lab_rows >= 4 && staged(std::integral_constant<int, 4>{})) ||
                             (lab_rows >= 2 && staged(std::integral_constant<int, 2>{})) ||
                             staged(std::integral_constant<int, 1>{})))
            return;""",
)
if "#include <cstdlib>" not in s:
    rep("#include <algorithm>\n", "#include <algorithm>\n#include <cstdlib>\n")
path.write_text(s)
print("lab E1 variant written to", path)
