"""Lab T4 patch of a rendered project's csrc/row_norm/cuda.cuh.
python3 patch_t4.py PROJECT [--stages3]
Always: the backward's grad_x as (rstd w) dy + (x_hat k1 + k2) (k1 = -rstd c1, k2 = -rstd c2), one
product fewer an element than rstd (w dy - c2 - x_hat c1); runtime knobs LAB_ITEMS2=1 (the backward's
pick_items tries 2 vectors a thread too) and LAB_CLUSTER_ITEMS=1 (a split row takes half kMost vectors a
thread, on a bigger cluster, where one of up to 8 suffices). --stages3: kStages = 3."""

import sys
from pathlib import Path

path = Path(sys.argv[1]) / "csrc/row_norm/cuda.cuh"
s = path.read_text()


def sub(old, new, count=1):
    global s
    assert s.count(old) == count, (old, s.count(old))
    s = s.replace(old, new)


# grad_x algebra
sub(
    """    if (active) {
      V* dx_row = reinterpret_cast<V*>(grad_x + row_offset + head);""",
    """    const opmath_t k1 = -rstd * c1, k2 = -rstd * c2;
    const auto grad_x_of = [&](opmath_t x_hat, opmath_t g, opmath_t w) {
      const opmath_t rest = kCentered ? x_hat * k1 + k2 : x_hat * k1;
      return (rstd * (w + kOffset)) * g + rest;
    };
    if (active) {
      V* dx_row = reinterpret_cast<V*>(grad_x + row_offset + head);""",
)
sub(
    "            out[e] = rstd * ((w[e] + kOffset) * g[e] - c2 - x_hat * c1);",
    "            out[e] = grad_x_of(x_hat, g[e], w[e]);",
)
sub(
    "        opmath_t out = rstd * ((static_cast<opmath_t>(weight[c]) + kOffset) * g - c2 - x_hat * c1);",
    "        opmath_t out = grad_x_of(x_hat, g, static_cast<opmath_t>(weight[c]));",
)
# LAB_ITEMS2
sub(
    """    for (int items : {1, 4, most}) {
      if (col_vecs <= static_cast<int64_t>(items) * threads) return items;
    }""",
    """    const bool lab_two = std::getenv("LAB_ITEMS2") != nullptr && most == kBackwardItems;
    for (int items : {1, 2, 4, most}) {
      if (items == 2 && !lab_two) continue;
      if (col_vecs <= static_cast<int64_t>(items) * threads) return items;
    }""",
)
sub(
    """  } else if (items == 4) {
    f(std::integral_constant<int, 4>{}, std::true_type{});""",
    """  } else if (items == 2) {
    f(std::integral_constant<int, 2>{}, std::true_type{});
  } else if (items == 4) {
    f(std::integral_constant<int, 4>{}, std::true_type{});""",
)
# LAB_CLUSTER_ITEMS
sub(
    """  if (items == 0) {
    const int split = pick_cluster(col_vecs, kMost, kClusterThreads);
    if (split > 1 && kernel_has_clusters(cluster_kernel, has_clusters)) {
      cluster = split;
      items = kMost;
    }
  }""",
    """  if (items == 0) {
    int most = kMost;
    if (std::getenv("LAB_CLUSTER_ITEMS") != nullptr && pick_cluster(col_vecs, kMost / 2, kClusterThreads) > 1)
      most = kMost / 2;
    const int split = pick_cluster(col_vecs, most, kClusterThreads);
    if (split > 1 && kernel_has_clusters(cluster_kernel, has_clusters)) {
      cluster = split;
      items = most;
    }
  }""",
)
if "--stages3" in sys.argv:
    sub("constexpr int kStages = 2;", "constexpr int kStages = 3;")
path.write_text(s)
print("patched", path)
