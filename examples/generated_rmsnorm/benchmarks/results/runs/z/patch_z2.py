"""Lab Z2: knobs read at each call, added to a rendered project's csrc/row_norm/cuda.cuh. Backward:
LAB_BWD_THREADS (as in lab Z1: the threads a block first tried for a cluster's slices, 512), LAB_BULK (2: bulk copies of the staged rows wherever a block holds one row, as the template does;
1: in clusters only; 0: none, each thread copying its own 16-byte pieces, as before), LAB_STAGE_RULE=0 (three
stages wherever they fit, as before, not two where these let a multiprocessor hold more blocks). The host
passes LAB_BULK to the kernel in the bits above the fourth of `passes`."""

# ruff: noqa: E501 (the C++ it writes, quoted whole)
import sys

path = sys.argv[1] + "/csrc/row_norm/cuda.cuh"
s = open(path).read()


def swap(old, new, nth=None):
    global s
    if nth is None:
        assert s.count(old) == 1, old
        s = s.replace(old, new)
    else:
        at = -1
        for _ in range(nth):
            at = s.index(old, at + 1)
        s = s[:at] + new + s[at + len(old) :]


swap(
    "  __shared__ uint64_t stage_copied[kStaged ? kStages : 1];\n",
    "  __shared__ uint64_t stage_copied[kStaged ? kStages : 1];\n"
    "  const int lab_bulk = passes >> 4;\n"
    "  passes &= 15;\n",
)
swap(
    "const bool bulk = kStaged && rows_per_block == 1;",
    "const bool bulk = kStaged && rows_per_block == 1 && (lab_bulk >= 2 || (lab_bulk == 1 && cluster > 1));",
)
assert s.count("g.row_threads, layout.passes, cluster, static_cast<opmath_t>(eps));") == 2
swap(
    "g.row_threads, layout.passes, cluster, static_cast<opmath_t>(eps));",
    'g.row_threads, layout.passes + 16 * lab_knob("LAB_BULK", 2), cluster, static_cast<opmath_t>(eps));',
    nth=2,
)
swap(
    "if (fits(Three{}) && blocks_per_sm(Three{}) >= blocks_per_sm(Two{})) {",
    'if (fits(Three{}) && (lab_knob("LAB_STAGE_RULE", 1) == 0 || blocks_per_sm(Three{}) >= blocks_per_sm(Two{}))) {',
)
swap(
    "const int split = pick_cluster(col_vecs, kMost, kClusterThreads);",
    "const int split = pick_cluster(col_vecs, kMost, kClusterThreads == kMaxRowThreads "
    '? lab_knob("LAB_BWD_THREADS", 512) : kClusterThreads);',
)
head = "::row_norm::cuda {\n"
at = s.index(head) + len(head)
knob = "inline int lab_knob(const char* n, int d) { const char* v = std::getenv(n); return v ? std::atoi(v) : d; }\n"
s = s[:at] + knob + s[at:]
open(path, "w").write(s)
