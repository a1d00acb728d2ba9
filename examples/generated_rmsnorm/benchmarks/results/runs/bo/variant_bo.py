"""Lab BO's variants (issue 11) of a rendered row-norm project (csrc/row_norm/cuda.cuh of the bundle
made from the commit that applies ../bm/template_change.diff):
`c3`: the backward's exchange of a row's sums between the blocks of a cluster (ClusterExchange)
waits for its peers' stores at the block's scope, `mbarrier.try_wait.parity` with its default
.acquire.cta, as CUTLASS's ClusterBarrier and QuACK's cluster reduction do, where main waits with
.acquire.cluster, which emits an invalidation of the L1 cache after every row's wait (analysis BK's
C3, ../bk/analysis_bk.md).
`x3`: c3, and the staged forward (forward_staged_kernel, rows split over a cluster) reduces its
sums over the cluster as QuACK's does: each block stores its sums into every peer's slot for it
(st.async, completing the peer's mbarrier) and waits on its own, after one cluster barrier split
around the copies (its arrival once the barriers are initialized, its wait before the first store);
no cluster barrier a row, no loads from a peer's shared memory, hence no cluster barrier before a
block leaves (main: one to reduce and one at the end). The same combination order: the same bits.
Each edit's old text matched exactly once (lab BD's apply).
    python3 variant_bo.py PROJECT c3|x3"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import apply  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"

C3 = (
    "    copy_barrier_wait<true>(&ready[turn], (phases >> turn) & 1u);\n",
    "    copy_barrier_wait(&ready[turn], (phases >> turn) & 1u);  // lab BO's c3: .acquire.cta\n",
)

EXCHANGE_ONCE = """\
// Lab BO's x3: arrives at a cluster barrier without ordering this thread's memory operations (the
// barriers' initialization is ordered by its fence), for a cluster_wait later.
__device__ __forceinline__ void cluster_arrive_relaxed() {
#ifdef ROW_NORM_CLUSTERS
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\\n" ::: "memory");
#endif
}

// Lab BO's x3: the combination of `value` (the same in every thread of the block) over the cluster's
// blocks in the order of their ranks, as cluster_reduce's: threads below `cluster` store it into
// slot [this block's rank] of `slots` in each block (st.async), whose bytes complete that block's
// `ready` (armed for cluster * sizeof(S) bytes); every thread waits for its own. Once only per
// barrier (phase 0). A block reads no peer's memory, and its peers' stores into it are done once it
// has waited, so it may leave without a cluster barrier.
template <typename S>
__device__ __forceinline__ S exchange_once(const S& value, S* slots, uint64_t* ready, int cluster) {
#ifdef ROW_NORM_CLUSTERS
  static_assert(sizeof(S) % 4 == 0, "sums are stored 4 bytes at a time");
  if (threadIdx.x < static_cast<unsigned>(cluster)) {
    const unsigned rank = threadIdx.x;
    const unsigned slot = cluster_address(&slots[cluster_rank()], rank);
    const unsigned barrier = cluster_address(ready, rank);
    uint32_t words[sizeof(S) / 4];
    memcpy(words, &value, sizeof(S));
#pragma unroll
    for (int k = 0; k < static_cast<int>(sizeof(S) / 4); ++k) {
      asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];\\n" ::"r"(
                       slot + 4 * k),
                   "r"(words[k]), "r"(barrier)
                   : "memory");
    }
  }
  copy_barrier_wait<true>(ready, 0);
  S total = slots[0];
  for (int rank = 1; rank < cluster; ++rank) total = S::combine(total, slots[rank]);
  return total;
#else
  return value;  // never launched with a cluster (see kernel_has_clusters)
#endif
}

"""

X3 = [
    C3,
    (
        "// Block r of each cluster of `cluster` blocks normalizes vectors",
        EXCHANGE_ONCE + "// Block r of each cluster of `cluster` blocks normalizes vectors",
    ),
    (
        "  __shared__ S cluster_slot;\n",
        "  __shared__ S row_slots[2][kMaxCluster];  // lab BO's x3: the row's sums, then a far row's\n"
        "  __shared__ uint64_t row_ready[2];\n",
    ),
    (
        "    copy_barrier_init(&copied);\n",
        "    copy_barrier_init(row_ready, 2);\n"
        "    for (int turn = 0; turn < 2; ++turn)\n"
        "      copy_barrier_expect(&row_ready[turn], static_cast<unsigned>(cluster * sizeof(S)));\n"
        "    copy_barrier_init(&copied);\n",
    ),
    (
        "  // (Read while the copies run.)\n",
        "  cluster_arrive_relaxed();  // lab BO's x3: row_ready is initialized (cluster_wait below)\n"
        "  // (Read while the copies run.)\n",
    ),
    (
        "  sums = cluster_reduce(sums, &cluster_slot, cluster);\n",
        "  cluster_wait();  // lab BO's x3: every peer's row_ready is initialized\n"
        "  sums = exchange_once(sums, row_slots[0], &row_ready[0], cluster);\n",
    ),
    (
        "      __shared__ S far_slot;\n      again = cluster_reduce(again, &far_slot, cluster);\n",
        "      again = exchange_once(again, row_slots[1], &row_ready[1], cluster);\n",
    ),
    (
        "  constexpr bool kSplitBarrier = !(kCentered && !kResidual && sizeof(scalar_t) == 2);\n"
        "  if constexpr (kSplitBarrier) cluster_arrive();\n",
        "",
    ),
    (
        "  if constexpr (kSplitBarrier) {\n    cluster_wait();\n  } else {\n    cluster_sync();\n  }\n}\n",
        "}\n",
    ),
]

EDITS = {"c3": [C3], "x3": X3}


def main(argv: list[str]) -> None:
    if len(argv) != 3 or argv[2] not in EDITS:
        sys.exit(f"usage: {Path(argv[0]).name} PROJECT {'|'.join(EDITS)}")
    apply(argv[1], argv[2], {KERNELS: EDITS[argv[2]]})


if __name__ == "__main__":
    main(sys.argv)
