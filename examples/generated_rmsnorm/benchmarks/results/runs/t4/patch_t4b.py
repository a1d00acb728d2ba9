"""Lab T4 patch: three stages of staging for the backward of norms without centring (RMSNorm) at four or more
vectors a thread, two elsewhere. python3 patch_t4b.py PROJECT"""

import sys
from pathlib import Path

path = Path(sys.argv[1]) / "csrc/row_norm/cuda.cuh"
s = path.read_text()


def sub(old, new, count=1):
    global s
    assert s.count(old) == count, (old, s.count(old))
    s = s.replace(old, new)


sub(
    "constexpr int kStages = 2;",
    "constexpr int kStages = 2;\ntemplate <bool kC, int kI>\n"
    "constexpr int kStagesFor = (!kC && kI >= 4) ? 3 : 2;",
)
sub(
    """template <int kItems>
constexpr size_t staging_bytes(int block_threads) {
  return static_cast<size_t>(kStages) *""",
    """template <int kItems, int kStagesN = kStages>
constexpr size_t staging_bytes(int block_threads) {
  return static_cast<size_t>(kStagesN) *""",
)
sub(
    """  using S = Sums<opmath_t, kCentered ? 4 : 2>;
  __shared__ S smem[core::kWarp];""",
    """  using S = Sums<opmath_t, kCentered ? 4 : 2>;
  constexpr int kStages = kStagesFor<kCentered, kItems>;
  __shared__ S smem[core::kWarp];""",
)
sub(
    "staging_bytes<kItems>(g.block_threads())",
    "staging_bytes<kItems, kStagesFor<Norm<float>::kCentered, kItems>>(g.block_threads())",
    count=2,
)
path.write_text(s)
print("patched", path)
