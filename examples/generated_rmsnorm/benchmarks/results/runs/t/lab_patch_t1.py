"""Lab T1's knob, patched into a rendered project's csrc/row_norm/cuda.cuh (read at each call):
LAB_FEW=1: where the rows are no more than the GPU's multiprocessors, the forward and the backward
take the fewest vectors a thread that cover the row with up to kMaxRowThreads threads (more threads
a row, less work a thread), instead of preferring kPreferredRowThreads."""

import sys

path = sys.argv[1] + "/csrc/row_norm/cuda.cuh"
text = open(path).read()


def rep(old, new):
    global text
    assert text.count(old) == 1, old
    text = text.replace(old, new)


rep(
    "inline int pick_forward_items(int64_t rows, int64_t col_vecs) {",
    """inline int lab_few(int64_t rows) {
  const char* v = std::getenv("LAB_FEW");
  return v != nullptr && v[0] == '1' && rows <= core::multiprocessor_count();
}
inline int lab_wide_items(int64_t col_vecs, int most) {
  for (int items : {1, 4, most}) {
    if (col_vecs <= static_cast<int64_t>(items) * kMaxRowThreads) return items;
  }
  return 0;
}
inline int pick_forward_items(int64_t rows, int64_t col_vecs) {
  if (lab_few(rows)) return lab_wide_items(col_vecs, kForwardItems);""",
)
rep(
    "pick_items(cols / kVec, kBackwardItems),",
    "lab_few(rows) ? lab_wide_items(cols / kVec, kBackwardItems) : pick_items(cols / kVec, kBackwardItems),",
)
open(path, "w").write(text)
print("patched", path)
