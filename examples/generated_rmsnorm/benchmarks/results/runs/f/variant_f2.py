# ruff: noqa: E501
"""Lab F2: patches a rendered project's csrc/row_norm/cuda.cuh (the candidate after lab F).
LAB_FWD8=1 (read at each call): the forward takes kForwardItems (8) vectors a thread for rows of 257
to 1024 vectors (instead of 4 on up to 256 threads); rows the warp rule gives a warp are unchanged.
python3 variant_f2.py PROJECT"""

import sys
from pathlib import Path

path = Path(sys.argv[1]) / "csrc/row_norm/cuda.cuh"
s = path.read_text()


def rep(old, new, count=1):
    global s
    assert s.count(old) == count, (old[:70], s.count(old))
    s = s.replace(old, new)


rep(
    "inline int pick_forward_items(int64_t rows, int64_t col_vecs, bool residual) {\n",
    """inline int lab_env(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}
inline int pick_forward_items(int64_t rows, int64_t col_vecs, bool residual) {
""",
)
rep(
    "  if (residual && col_vecs > 4 * kPreferredRowThreads && col_vecs <= 4 * kMaxRowThreads) return 4;\n",
    """  if (residual && col_vecs > 4 * kPreferredRowThreads && col_vecs <= 4 * kMaxRowThreads) return 4;
  if (lab_env("LAB_FWD8", 0) && col_vecs > 256 && col_vecs <= 4 * kPreferredRowThreads) return kForwardItems;
""",
)
if "#include <cstdlib>" not in s:
    rep("#include <algorithm>\n", "#include <algorithm>\n#include <cstdlib>\n")
path.write_text(s)
print("lab F2 variant written to", path)
