"""Lab Z1: knobs read at each call, added to a rendered project's csrc/row_norm/cuda.cuh.
Forward: LAB_OLD=1 (the cluster kernel of registers, forward_rows), LAB_FWD_OLD=1 (the staged kernel's
geometry of 442912e: the fewest blocks whose slices take at most 32 KiB on 256 threads, else 8 blocks on
512 threads up to 64 KiB), LAB_MAXSLICE (the most bytes a block's slices take before the cluster doubles,
49152), LAB_LEAST (the fewest threads a block, 256), LAB_TB (bytes of the slices a thread, 128).
Backward: LAB_BWD_THREADS (the threads a block first tried for a cluster's slices, 512), LAB_BWD_STAGES=2
(two stages where three fit)."""

# ruff: noqa: E501 (the C++ it writes, quoted whole)
import sys

path = sys.argv[1] + "/csrc/row_norm/cuda.cuh"
s = open(path).read()


def swap(old, new):
    global s
    assert s.count(old) == 1, old
    s = s.replace(old, new)


swap(
    "constexpr int64_t kStagedThreadBytes = 8 * core::kMaxVectorBytes;\nconstexpr int kStagedLeastThreads = 256;\n",
    '#define kStagedThreadBytes static_cast<int64_t>(lab_knob("LAB_TB", 128))\n'
    '#define kStagedLeastThreads static_cast<int64_t>(lab_knob("LAB_LEAST", 256))\n',
)
swap(
    "  int cluster = 2;\n  while (cluster < kMaxCluster && 2 * bytes_of(cluster) > 3 * kStagedSliceBytes) cluster *= 2;\n",
    '  if (lab_knob("LAB_FWD_OLD", 0)) {\n'
    "    int c = 2;\n"
    "    while (c < kMaxCluster && bytes_of(c) > kStagedSliceBytes) c *= 2;\n"
    "    if (bytes_of(c) > 2 * kStagedSliceBytes) return {0, 0};\n"
    "    return {c, bytes_of(c) > kStagedSliceBytes ? 512 : 256};\n"
    "  }\n"
    "  int cluster = 2;\n"
    '  while (cluster < kMaxCluster && bytes_of(cluster) > lab_knob("LAB_MAXSLICE", 49152)) cluster *= 2;\n',
)
swap(
    "items == 0 && launch_forward_staged",
    'items == 0 && lab_knob("LAB_OLD", 0) == 0 && launch_forward_staged',
)
swap(
    "const int split = pick_cluster(col_vecs, kMost, kClusterThreads);",
    "const int split = pick_cluster(col_vecs, kMost, kClusterThreads == kMaxRowThreads "
    '? lab_knob("LAB_BWD_THREADS", 512) : kClusterThreads);',
)
swap("if (fits(Three{})) {", 'if (lab_knob("LAB_BWD_STAGES", 3) >= 3 && fits(Three{})) {')
head = "::row_norm::cuda {\n"
at = s.index(head) + len(head)
s = (
    s[:at]
    + "inline int lab_knob(const char* n, int d) { const char* v = std::getenv(n); return v ? std::atoi(v) : d; }\n"
    + s[at:]
)
open(path, "w").write(s)
