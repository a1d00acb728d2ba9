"""Lab Y1: knobs read at each call, added to a rendered project's csrc/row_norm/cuda.cuh:
LAB_OLD=1 (the forward's cluster kernel of registers, as before), LAB_THREADS (the staged kernel's
threads a block, 256), LAB_SLICE (its most bytes a block, 32768)."""

import sys

path = sys.argv[1] + "/csrc/row_norm/cuda.cuh"
s = open(path).read()
old = "constexpr int kStagedThreads = 256;\nconstexpr int64_t kStagedSliceBytes = 32 * 1024;\n"
new = (
    "inline int lab_knob(const char* n, int d) { const char* v = std::getenv(n); return v ? std::atoi(v) : d; }\n"  # noqa: E501
    '#define kStagedThreads lab_knob("LAB_THREADS", 256)\n'
    '#define kStagedSliceBytes static_cast<int64_t>(lab_knob("LAB_SLICE", 32768))\n'
)
assert s.count(old) == 1
s = s.replace(old, new)
old = "items == 0 && launch_forward_staged"
assert s.count(old) == 1
s = s.replace(old, 'items == 0 && lab_knob("LAB_OLD", 0) == 0 && launch_forward_staged')
open(path, "w").write(s)
