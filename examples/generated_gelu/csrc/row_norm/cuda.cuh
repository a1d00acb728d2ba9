// The row normalization family's CUDA kernels: each row of x is normalized over its N elements by a
// group of threads (several rows a block where a row needs fewer than a warp), statistics in float
// (double for float64), in 16-byte vectors: from each row's start where N and the pointers allow,
// else from the row's first vector boundary with its few edge elements read one at a time (see
// head_elements), else (tensors at different offsets from a boundary, or short rows) one element at
// a time. An operator's .cu registers them with ROW_NORM_CUDA_KERNELS (at the end of this file).
//
// Forward: the row is read once into registers (up to kForwardItems vectors a thread), the weight
// (and bias) read while the row's statistics are reduced, then the row is normalized and written.
// One reduction a row: RMSNorm's sum of squares, or LayerNorm's (count, mean, sum of squared
// deviations) of each thread's elements, combined across the row with Chan's formula (in rows staged
// in shared memory, below: the sums of x - the row's first element and of its squares, and a second
// reduction for a row whose first element lies far from its mean). Rows wider
// than one block's registers are split over a thread block cluster (sm_90 and newer: each block
// copies its slice into shared memory, or where that does not fit keeps it in registers; the
// statistics are combined through distributed shared memory), or, where clusters are not available
// or do not suffice, read again for each step (from L2).
//
// Backward: a grid of about as many blocks (or clusters) as the GPU holds at once, at most
// kMaxBlocksPerSM a multiprocessor (fewer for RMSNorm's staged 16-bit rows that start on a vector
// boundary: kStagedRowElementsPerSM), walks the rows. With 16-byte vectors, each block copies its next
// row's x and grad_out (and grad_residual_out: kMostStagedTensors) into shared memory (cp.async)
// while it works on the current one, where the GPU gives a block the room. One read of a row gives
// the sums the formula needs (one reduction), then
// the thread writes grad_x and adds grad_out * x_hat (and grad_out) into the thread's own columns of
// grad_weight (grad_bias), in registers. Each row group then writes its sums as one row of a float32
// workspace, and a second kernel adds those rows column by column in a fixed order: the same bits on
// every run on one GPU (the grid, and so the order, follows N, the GPU's size and its shared memory a
// block, as ROW_NORM_SHARED_MEMORY_LIMIT caps it, and ROW_NORM_BACKWARD_GROUPS). Wider rows are split over a
// cluster, each block owning a fixed slice of the columns of every row, so its sums stay in registers too;
// where clusters are not available or do not suffice the sums are kept in the workspace instead (one row per
// block, x and grad_out read again from L1 or L2 for grad_x).
#pragma once

#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cooperative_groups.h>
#include <torch/library.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <mutex>
#include <numeric>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "core/common.h"
#include "core/cuda.cuh"
#include "row_norm/checks.h"
#include "row_norm/registration.h"
#include "row_norm/statistics.h"

// Thread block clusters and their distributed shared memory exist from sm_90 on. The host side asks
// each kernel for the architecture it was compiled for (kernel_has_clusters) and launches clusters
// only where this is set, so a build for older GPUs compiles and runs without them.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define ROW_NORM_CLUSTERS 1
#endif
// cp.async (a copy from global to shared memory that does not pass through registers), sm_80 on.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define ROW_NORM_CP_ASYNC 1
#endif
// L2 cache eviction policies (createpolicy, and ld's .L2::cache_hint that takes one), sm_80 on; see
// load_evict_last.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define ROW_NORM_L2_POLICY 1
#endif

namespace generated_gelu::row_norm::cuda {

// A row takes at most this many threads; wider rows give each thread more vectors.
constexpr int kMaxRowThreads = 512;
// Rows narrower than a warp share a block of this many threads.
constexpr int kSmallRowBlockThreads = 128;
// Vectors of a row a thread keeps in registers: forward (x) and backward (the float sums of its
// columns of grad_weight and grad_bias, kBackwardItems x the vector width each).
constexpr int kForwardItems = 8;
constexpr int kBackwardItems = 4;
// The forward reads the weight and bias of the thread's columns into registers before the row's
// reduction (so their latency is hidden behind it) where they take at most kPrefetchParameterBytes
// a thread, or kPrefetchWeightBytes for a 16-bit weight without a bias; beyond, after it, as the
// normalization needs them. Lab RN5 (H200): with 128 bytes for every case, the float32 RMSNorm
// forward at 8192 x 8192 ran at 77% of the copy rate (64: 96%), the bfloat16 LayerNorm at
// 32768 x 4096 at 61% (64: 66%); with 64, the bfloat16 RMSNorm at 4096 x 16384 at 84% (128: 100%).
constexpr int kPrefetchParameterBytes = 64;
constexpr int kPrefetchWeightBytes = 128;
// Blocks of a cluster that shares one row: the fewest of 2, 4, 8 whose blocks hold the row in
// registers (8 is the largest cluster every GPU with clusters supports).
constexpr int kMaxCluster = 8;
// The parameter gradients' second kernel: columns per block, and threads a column (rows in flight):
// kManySumRowsInFlight where the workspace has at least kManySumRows rows, else kSumRowsInFlight.
// Lab R2 of the example's benchmarks/results/runs/ (H200, CUDA graphs): with 32 threads a column for
// every workspace, the bfloat16 RMSNorm backward at 65536 x 128 (thousands of workspace rows) took
// 30 us against 54 with 8, at 1024 x 65536 (a few dozen) 189 us against 184.
constexpr int kSumColumns = 32;
constexpr int kSumRowsInFlight = 8;
constexpr int kManySumRowsInFlight = 32;
constexpr int kManySumRows = 256;
// Blocks (or clusters) of the backward a multiprocessor takes at most: each of their row groups adds
// a row to the workspace, which is written and then read again, and many small blocks fit on a
// multiprocessor. Lab R3 of the example's benchmarks/results/runs/ (H200, CUDA graphs), with this
// cap and the second kernel's kManySumRowsInFlight against as many blocks as fit and 8 rows in
// flight: the bfloat16 RMSNorm backward at 4096 x 512 took 10.6 us against 18.3, the float32
// LayerNorm's at 20000 x 24 44 us against 151. At 4 a multiprocessor some shapes of short rows
// gained more (float32 LayerNorm at 20000 x 24: 26 us against 44), but the float32 RMSNorm backward
// at 8192 x 2048 took 77 us against 66.
constexpr int kMaxBlocksPerSM = 8;
// The staged backward of a norm without centring (RMSNorm, its residual-add form) over 16-bit rows of
// several vectors a thread that start on a vector boundary takes the fewest blocks a multiprocessor, of
// those it holds, whose rows together come to this many elements (backward_blocks_per_sm). Labs AT7
// and AU1 of the example's benchmarks/results/runs/ (H200, bfloat16 and float16, CUDA graphs): with
// fewer blocks than the multiprocessor holds, RMSNorm's bfloat16 backward took 0.92 to 0.96 of the
// time at 32768 x 4096 (two blocks of four), 8192 x 8192 (one of two), 16384 x 5120 (two of three) and
// 32768 x 3072 (three of five); below this many elements it was slower (16384 x 6144 with one block of
// two: 1.18; 16384 x 2560 with two of five: 1.22; 16384 x 7168 with one of two: 1.01). Rows that start
// off a vector boundary (kShifted) were slower with fewer blocks (lab AV2: with every block they hold,
// 0.74 to 0.88 of the time at 8192 x 4095, 16384 x 4095, 8192 x 8191 and 16384 x 5119); so were the
// centred norms at the counts this rule would give them (lab AT4: 1.08 to 1.19, but for the
// residual-add LayerNorm at 8192 x 5120, 0.99) and rows of one vector a thread (4096 x 1024); float32's
// backward moved by 0.98 to 1.03 at the large shapes (lab AT4). They all keep every block the
// multiprocessor holds, as do rows split over a cluster (not timed with fewer).
constexpr int64_t kStagedRowElementsPerSM = 7680;
// The backward goes without its workspace (kKeep) only where every row group has at least this many
// rows for each of its kept rows: the grid barriers and the kept rows, written after the grid's sums,
// cost about the same time whatever the rows, so that at few rows a group they cost more than the
// workspace's second kernel. Labs AZ and AZ2 of the example's benchmarks/results/runs/ (H200,
// forward+backward without the workspace, one run, over the mean of two with it; az/ratio_az.txt and
// az/ratio_az2.txt): RMSNorm 1.204 to 1.437 at one row a group for each kept row, 1.096 to 1.117 at
// 3.9, 1.044 to 1.072 at 7.8, 1.031 to 1.053 at 11.6, 1.024 to 1.049 at 15.5, 1.021 to 1.035 at 23.3,
// 1.015 to 1.028 at 31; the residual-add RMSNorm 1.170 to 1.388 at one, 1.071 to 1.092 at 3.9, 1.030
// to 1.037 at 7.8, 1.022 to 1.026 at 11.6, 1.018 to 1.020 at 15.5, 1.013 to 1.015 at 23.3, 0.995 to
// 1.013 at 31 (float32 and bfloat16; the LayerNorms were timed up to 3.9 only). Eight keeps the
// workspace below 8 rows a kept row (up to 1.072 at 7.8, 1.07 to 1.44 at fewer) and spares its memory
// from 8 on (at most 1.053 where timed, at 11.6 to 31; the LayerNorms not timed there), as at the
// 16-bit rows of 4096 x 16384 (15.5), whose forward+backward's peak memory call AY brought to eager's.
constexpr int64_t kRowsPerKeptRow = 8;
// Rows a multiprocessor at least, in the forward, for rows of up to kForwardItems vectors a thread of
// a warp to take a warp (pick_forward_items).
constexpr int kWarpRowsPerSM = 8;
// The backward's staging of its next rows in shared memory: stages (the row being worked on and the
// stages - 1 after it) and tensors (kMostStagedTensors). A norm without centring or residual add (RMSNorm),
// in rows that start on a vector boundary at four or more vectors a thread, takes up to three stages,
// the others two; fewer where the GPU gives a block less shared memory or cannot place a cluster of
// such blocks (three, then two, then none: see backward_cuda). Call X20 of the example's
// benchmarks/results/runs/ (H200, CUDA graphs), three stages against call X19's two: RMSNorm
// forward+backward 1.9 to 7.6% faster at 32768 x 4096, 8192 x 8192, 4096 x 16384 and 1024 x 65536 (float32 at
// 4096 x 16384: 349.8 us against 378.4), but 3.0 to 4.9% slower at 8192 x 4095 (shifted rows, see
// head_elements), which keep two. The other norms, whose staged kernels hold more in registers, keep two. Lab
// C1 (H200, device time, three stages against two in the same call): LayerNorm's 16-bit kernels of three
// stages spilled (ptxas: 20 bytes of stores against up to 12) and its forward+backward took 1.9 to 4.2%
// longer at 32768 x 4096, 8192 x 8192 and 4096 x 16384, the residual-add RMSNorm's 0.8 to 5.5%; only float32
// LayerNorm gained (3.3% at 1024 x 65536, 4.5% at 4096 x 16384).
template <bool kCentered, bool kResidual, bool kShifted, int kItems>
constexpr int kMostStages = !kCentered && !kResidual && !kShifted && kItems >= 4 ? 3 : 2;
// The tensors a stage holds: x and grad_out, and with a residual add grad_residual_out too, where it
// is given and the GPU gives a block room for a third tensor (else two, then none: see backward_cuda),
// which the output pass otherwise reads from global memory as each thread gets to it. Lab AJ of the
// example's benchmarks/results/runs/ (H200, device time, CUDA graphs, staged in two stages of three
// tensors against two): the residual-add RMSNorm's bfloat16 forward+backward at 1024 x 65536 took
// 296.0 us against 345.3, at 32768 x 4096 533.6 against 580.0; the residual-add LayerNorm's 336.4
// against 380.9 and 542.9 against 602.8; float32 7 to 12% faster at 1024 x 65536, 4096 x 16384 and
// 32768 x 4096.
template <bool kResidual>
constexpr int kMostStagedTensors = kResidual ? 3 : 2;
// The counts of tensors a stage may hold (two, or three up to kMostStagedTensors): the host's
// occupancy caches hold one entry for each.
constexpr int kStagedTensorCounts = kMostStagedTensors<true> - 1;
// A staged backward kernel reads the weight of the thread's columns once, into registers, where it
// takes at most kHeldWeightBytes a thread (not a float32 weight with a 16-bit x at four vectors a
// thread: 128 bytes), rather than in both passes over every row: the staging leaves an SM little L1
// cache (lab T1 of the example's benchmarks/results/runs/, Nsight Compute: the float32 RMSNorm
// backward at 32768 x 4096, reading the weight in both passes, had 26% hits over all its reads through
// L1, and its warps waited on L1TEX for 8.3 of their 15.6 cycles a warp instruction). Lab T2 (H200,
// forward+backward): float32 RMSNorm at 4096 x 16384 374 us against 440, at 32768 x 4096 685 against
// 723; bfloat16 LayerNorm at 32768 x 4096 365 against 394. (Read before each row's wait instead, the
// weight saved less, 437 and 698 us, and the float32 RMSNorm kernel at four vectors a thread took 112
// registers against 87: runs/t/ptxas_x16_against_31dfa94.txt.)
constexpr int kHeldWeightBytes = 64;

// How the threads of a block share its rows: row_threads threads a row (a power of two up to a warp,
// else a multiple of the warp and one row a block), rows_per_block rows a block.
struct RowGeometry {
  int row_threads;
  int rows_per_block;
  int block_threads() const { return row_threads * rows_per_block; }
};

// The fewest threads a row needs for `col_vecs` vectors at `items` vectors a thread.
inline RowGeometry make_row_geometry(int64_t col_vecs, int items) {
  const int64_t needed = std::max<int64_t>(1, (col_vecs + items - 1) / items);
  if (needed > core::kWarp) {
    const int threads = static_cast<int>(
        std::min<int64_t>(kMaxRowThreads, (needed + core::kWarp - 1) / core::kWarp * core::kWarp));
    return {threads, 1};
  }
  int threads = 1;
  while (threads < needed) threads *= 2;
  return {threads, kSmallRowBlockThreads / threads};
}

// Vectors a thread: the smallest of {1, 4, most} that covers the row with at most
// kPreferredRowThreads threads, else with at most kMaxRowThreads, else 0 (the row is then read in
// several passes, or split over a cluster). Several vectors a thread keep more bytes in flight per
// thread than one vector each on more threads: at 32768 x 4096 in bfloat16 on an H200 (lab RN1 of
// the example's benchmarks/results/runs/), one vector a thread on 512 threads took the RMSNorm
// forward to 53% of the copy rate, four vectors on 256 threads in float32 to 99%.
// Where the rows are no more than the GPU's multiprocessors, which they leave mostly idle, a call
// takes as long as one row does: a row then takes up to kMaxRowThreads threads first, so that each
// does less. Lab T2 of the example's benchmarks/results/runs/ (H200, bfloat16, 16 x 4096, one vector
// a thread on 512 threads against four on 128): the LayerNorm forward took 3.08 us against 3.50 (its
// weight and bias then fit the registers, see kPrefetchParameterBytes), its forward+backward 10.66
// against 11.61; the RMSNorm forward+backward 9.02 against 9.14, its forward 2.21 against 2.16.
constexpr int kPreferredRowThreads = 256;

inline int pick_items(int64_t rows, int64_t col_vecs, int most) {
  const bool few_rows = rows <= core::multiprocessor_count();
  for (int threads : {kPreferredRowThreads, kMaxRowThreads}) {
    if (few_rows && threads < kMaxRowThreads) continue;
    for (int items : {1, 4, most}) {
      if (col_vecs <= static_cast<int64_t>(items) * threads) return items;
    }
  }
  return 0;
}

// The forward's vectors a thread: pick_items', except that rows of more than a warp's vectors and at
// most kForwardItems vectors a thread of a warp take four or kForwardItems vectors a thread (a warp
// or, up to 64 vectors, 16 threads a row) where there are rows enough for kWarpRowsPerSM a
// multiprocessor: the row's reduction then stays within the warp, without the block's barriers.
// Lab R3 of the example's benchmarks/results/runs/ (H200, CUDA graphs): the float32 LayerNorm
// forward at 4096 x 1024 took 9.8 us against 19.7 on a block of 256 threads, the bfloat16 at
// 16384 x 1024 21.0 us against 40.6; with fewer rows, a warp a row took longer (float32 RMSNorm at
// 512 x 1024: 4.40 us against 3.13).
// Three kinds of rows that start on a vector boundary take other counts where the rows are more than
// the multiprocessors (pick_items' few rows keep its counts), as measured in labs F and F2 of the
// example's benchmarks/results/runs/ (H200, device time; registers: ptxas on the CPU machine,
// runs/f/ptxas_forward_2c8cde3.txt); shifted rows (see head_elements) keep the counts above (call X29
// gave LayerNorm's bfloat16 rows at 8192 x 4095 eight vectors a thread: its forward took 49.9 us
// against X28's 44.4 on four).
// - With the residual add, whose threads hold x's and residual's vectors in flight, rows that four
//   vectors a thread cover on up to kMaxRowThreads threads take four, rather than kForwardItems on up
//   to kPreferredRowThreads. The residual-add RMSNorm's bfloat16 forward at 4096 x 16384 took 139.8 us
//   against 171.0 (its kernel at eight vectors took 100 registers a thread: two blocks of 256 threads
//   an SM), at 6144 x 12288 168.1 against 214.1; the residual-add LayerNorm's float32 at 16384 x 6144
//   409.4 against 452.0, the RMSNorm's 429.7 against 410.7, the one case slower in the lab; but calls
//   X29 and X30 had the residual-add LayerNorm's float32 forward at 8192 x 8192 at 286.9 and 291.2 us,
//   against X28's 276.4 on eight vectors (the lab: 288.5 against 297.1). Without the add, LayerNorm's
//   bfloat16 forward took longer so (81.3 us against 72.4 at 4096 x 16384). (float64 rows, which the
//   rule covers too, were not timed.) The residual-add LayerNorm's 16-bit rows take four as well since
//   their loads come first (kLoadsFirst): lab BC of the example's benchmarks/results/runs/ (H200,
//   device time) had its forward at 4096 x 16384 at 0.906 (bfloat16) and 0.912 (float16) of the time
//   on eight vectors on kPreferredRowThreads, which it took before (whose kernel spilled: lab BB0),
//   its forward+backward at 0.950 and 0.953. (Item after item, lab AE4 had four slower: 1.033 and
//   1.051 of eight's time.)
// - LayerNorm's 16-bit rows without the add (whose kernel at four vectors a thread takes 48 registers)
//   of more than kForwardItems vectors a thread of a warp, and no more than four vectors a thread of
//   kPreferredRowThreads cover, take kForwardItems vectors a thread: its bfloat16 forward at 32768 x 4096
//   took 134.6 us against 139.1, at 16384 x 6144 102.0 against 110.5, the float16 at 32768 x 4096 132.9
//   against 137.6. The other norms and float32 took longer so (RMSNorm's bfloat16 at 16384 x 6144 99.8 us
//   against 97.4, LayerNorm's float32 at 32768 x 4096 266.6 against 262.1, the residual-add RMSNorm's
//   bfloat16 309.5 against 260.4). Calls X29 and X30 took this rule for few rows too, where it gave eight
//   vectors on 64 threads in place of pick_items' one on 512 (lab T2 above): LayerNorm's 16-bit forward
//   at 16 x 4096 took 4.5 us of device time against X28's 2.9 (X30's forward+backward 12.5-12.8 us
//   against X28's 10.5-10.8); call X31, with both rules bounded to more rows, 2.96 us (forward+backward
//   10.4-10.7). (With the residual add, pick_items gives few rows four vectors on up to kMaxRowThreads
//   threads too: the bound changes nothing there.)
// - The residual-add RMSNorm's 16-bit rows that start on a vector boundary (kTwoItemRows), of more
//   than kForwardItems vectors a thread of a warp and no more than two vectors a thread of
//   kMaxRowThreads cover, take two vectors a thread, as Liger-Kernel's Triton kernel does (a block of
//   16 warps at N = 8192, 8 at N = 4096), rather than four on up to kPreferredRowThreads. Lab BF of
//   the example's benchmarks/results/runs/ (H200, device time): its forward at 8192 x 8192 took 0.969
//   of the time on four vectors in both types, at 32768 x 4096 0.980 (bfloat16) and 0.978 (float16),
//   at 16384 x 6144 0.966 and 0.965 (rows of 1024, 512 and 768 vectors, 8192 rows or more). Not
//   timed, and taken by the rule all the same: rows of 257 to 511 vectors, a few hundred rows, rows
//   read element by element (kVec 1).
template <template <typename> class Norm, typename scalar_t, bool kShifted>
constexpr bool kTwoItemRows =
    !kShifted && Norm<float>::kResidual && !Norm<float>::kCentered && sizeof(scalar_t) == 2;

template <template <typename> class Norm, typename scalar_t, bool kShifted>
int pick_forward_items(int64_t rows, int64_t col_vecs) {
  const bool warp_rows = col_vecs > core::kWarp &&
                         col_vecs <= static_cast<int64_t>(kForwardItems) * core::kWarp &&
                         rows >= static_cast<int64_t>(kWarpRowsPerSM) * core::multiprocessor_count();
  if (warp_rows) return col_vecs <= 4 * core::kWarp ? 4 : kForwardItems;
  if (rows <= core::multiprocessor_count()) return pick_items(rows, col_vecs, kForwardItems);
  if constexpr (kTwoItemRows<Norm, scalar_t, kShifted>) {
    if (col_vecs > kForwardItems * core::kWarp && col_vecs <= 2 * kMaxRowThreads) return 2;
  }
  if constexpr (!kShifted && Norm<float>::kResidual) {
    if (col_vecs > 4 * kPreferredRowThreads && col_vecs <= 4 * kMaxRowThreads) return 4;
  } else if constexpr (!kShifted && Norm<float>::kCentered && sizeof(scalar_t) == 2) {
    if (col_vecs > kForwardItems * core::kWarp && col_vecs <= 4 * kPreferredRowThreads) return kForwardItems;
  }
  return pick_items(rows, col_vecs, kForwardItems);
}

// The cluster size that splits a row of `col_vecs` vectors into slices of at most `items` vectors a
// thread on at most `threads` threads a block, or 1 where none up to kMaxCluster does. dispatch_rows
// asks for kForwardClusterThreads or kBackwardClusterThreads threads first, then kMaxRowThreads.
// Lab RN5 (H200): the forward ran faster on slices of kPreferredRowThreads threads (float32 RMSNorm
// at 1024 x 65536: 73% of the copy rate against 68% on kMaxRowThreads), the backward on slices of
// kMaxRowThreads (float32 RMSNorm forward+backward at 4096 x 16384: 74% against 68%): fewer blocks a
// row, fewer cluster barriers for the same bytes. (The backward measured then passed a cluster barrier a
// row; with the exchange of ClusterExchange, since call X26, the thread counts were not measured again.)
constexpr int kForwardClusterThreads = kPreferredRowThreads;
constexpr int kBackwardClusterThreads = kMaxRowThreads;

inline int pick_cluster(int64_t col_vecs, int items, int threads) {
  for (int cluster = 2; cluster <= kMaxCluster; cluster *= 2) {
    if ((col_vecs + cluster - 1) / cluster <= static_cast<int64_t>(items) * threads) return cluster;
  }
  return 1;
}

// ---------------------------------------------------------------------------------------------
// Reductions
// ---------------------------------------------------------------------------------------------
// Products and sums rounded as written (no fused multiply-add), so that a combination of (a, b)
// and of (b, a) gives the same bits: the partners of a butterfly then hold the same statistics.
__device__ __forceinline__ float mul_rn(float a, float b) {
  return __fmul_rn(a, b);
}
__device__ __forceinline__ double mul_rn(double a, double b) {
  return __dmul_rn(a, b);
}
__device__ __forceinline__ float add_rn(float a, float b) {
  return __fadd_rn(a, b);
}
__device__ __forceinline__ double add_rn(double a, double b) {
  return __dadd_rn(a, b);
}
// a / b for the combinations: in float the fast division (a reciprocal approximation and a product,
// within 2 ulp) rather than IEEE division's longer sequence, which lies on the reduction's critical
// path up to ten times a row (lab RN5, H200: the float32 LayerNorm forward at 32768 x 4096 ran at 56%
// of the copy rate with IEEE division, 84% with this); double keeps the exact division.
__device__ __forceinline__ float divide(float a, float b) {
  return __fdividef(a, b);
}
__device__ __forceinline__ double divide(double a, double b) {
  return a / b;
}

// The statistics of a set of elements: RMSNorm needs their sum of squares (m2), LayerNorm their
// count, mean and sum of squared deviations from the mean (m2). Two sets combine with Chan's
// formula, exact in any order up to rounding and free of the cancellation that E[x^2] - E[x]^2
// suffers where the mean is large against the spread. LayerNorm's means are those of x - origin,
// origin one value for the whole row (row_origin), so that each combination rounds its mean at the
// distance between the mean and the origin (a few deviations in most rows, at most sqrt(N - 1) of
// them where the origin is an outlier), not at the mean's distance from zero.
template <typename T, bool kCentered>
struct Moments {
  T count, mean, m2;  // no initializers: __shared__ arrays of it must be trivially constructible

  // The statistics of `count` elements from their sums about `shift`: sum of d = x - shift and of
  // d^2 (LayerNorm: sum(d^2) - sum(d)^2 / count loses no more digits than the elements' own spread
  // allows; RMSNorm takes the squares alone, with shift 0). LayerNorm passes shift - origin (see
  // row_origin): the mean is then that of x - origin.
  __device__ __forceinline__ static Moments of_sums(int count, T shift, T sum, T squares) {
    Moments out{};
    if constexpr (kCentered) {
      if (count > 0) {
        out.count = static_cast<T>(count);
        const T mean_d = sum / out.count;
        out.mean = shift + mean_d;
        const T m2 = squares - sum * mean_d;
        out.m2 = m2 > T(0) ? m2 : T(0);
      }
    } else {
      out.m2 = squares;
    }
    return out;
  }

  __device__ __forceinline__ static Moments combine(const Moments& a, const Moments& b) {
    if constexpr (!kCentered) {
      return {0, 0, a.m2 + b.m2};
    } else {
      if (a.count == T(0)) return b;
      if (b.count == T(0)) return a;
      const T n = a.count + b.count;
      const T d = b.mean - a.mean;  // its sign differs between the partners, its square does not
      const T mean = divide(add_rn(mul_rn(a.count, a.mean), mul_rn(b.count, b.mean)), n);
      const T m2 = add_rn(add_rn(a.m2, b.m2), mul_rn(mul_rn(d, d), divide(mul_rn(a.count, b.count), n)));
      return {n, mean, m2};
    }
  }

  // combine, in a step of a butterfly that every lane of the warp takes; with kTryEqual, a step
  // without a division where every lane's two sets hold equal counts, as they do where a row fills
  // its threads' vectors evenly. One vote keeps the warp on one path; where counts differ it fails
  // and costs the step a few instructions. Shifted rows, where some threads hold an edge element,
  // do not try it; rows of one element a vector that do not fill their threads evenly do, untimed.
  // Measured (the example's benchmarks/results/runs/, H200): LayerNorm's 16-bit forward at 8192 x
  // 8192 took 2 to 3% less time in calls X17 to X19 than in X16. At 8192 x 4095 (shifted rows),
  // X17's test of each lane's own counts, which split the warp, took 5 to 8% longer than X16; X18's
  // vote 3 to 5%; X19, not trying it there, as long as X16. SASS of the bfloat16 forward
  // (x19/butterfly_sass.txt): a step of combine alone 30 or 31 instructions, of this 45 or 46.
  template <bool kTryEqual>
  __device__ __forceinline__ static Moments combine_lanes(const Moments& a, const Moments& b) {
    if constexpr (kCentered && kTryEqual) {
      if (__all_sync(0xffffffffu, a.count == b.count)) {
        const T d = b.mean - a.mean;
        const T mean = mul_rn(T(0.5), add_rn(a.mean, b.mean));
        const T m2 = add_rn(add_rn(a.m2, b.m2), mul_rn(mul_rn(d, d), mul_rn(T(0.5), a.count)));
        return {add_rn(a.count, b.count), mean, m2};
      }
    }
    return combine(a, b);
  }

  __device__ __forceinline__ Moments shuffle_xor(int offset) const {
    Moments other{};
    other.m2 = __shfl_xor_sync(0xffffffffu, m2, offset);
    if constexpr (kCentered) {
      other.count = __shfl_xor_sync(0xffffffffu, count, offset);
      other.mean = __shfl_xor_sync(0xffffffffu, mean, offset);
    }
    return other;
  }
};

// K sums that combine by addition (the backward's).
template <typename T, int K>
struct Sums {
  T v[K];

  __device__ __forceinline__ static Sums combine(const Sums& a, const Sums& b) {
    Sums out{};
#pragma unroll
    for (int k = 0; k < K; ++k) out.v[k] = a.v[k] + b.v[k];
    return out;
  }

  template <bool kTryEqual>
  __device__ __forceinline__ static Sums combine_lanes(const Sums& a, const Sums& b) {
    return combine(a, b);
  }

  __device__ __forceinline__ Sums shuffle_xor(int offset) const {
    Sums other{};
#pragma unroll
    for (int k = 0; k < K; ++k) other.v[k] = __shfl_xor_sync(0xffffffffu, v[k], offset);
    return other;
  }
};

// The sum of K = 2 or 4 values over the 32 lanes of a warp, the same bits in every lane, in fewer
// instructions than a butterfly of all K (LayerNorm's 4: 10 shuffles, 6 additions and 6 selections
// against 20 shuffles and 20 additions; RMSNorm's 2: 7, 5 and 2 against 10 and 10): a reduce-scatter
// (each lane keeps half of its values and adds its partner's copies of that half, until it holds one
// value), a butterfly on that value, then a gather of the K sums from the lanes that hold them. In the
// butterfly, partners add the same two values in either order (x + y and y + x, the same bits), and
// the gather broadcasts each sum from one lane, so every lane ends with the same bits. Sums of 2 or 4
// values take it wherever a row spans at least a warp: the backward's row sums, and the centred norms'
// staged forward's (ForwardSums of 2), whose row sums therefore round differently than before.
template <typename S>
constexpr bool kScatters = false;
template <typename T, int K>
constexpr bool kScatters<Sums<T, K>> = K == 2 || K == 4;

template <typename T, int K>
__device__ __forceinline__ Sums<T, K> warp_sum_scattered(const Sums<T, K>& s) {
  const unsigned lane = threadIdx.x % core::kWarp;
  const bool odd = lane & 1u;
  T value;
  if constexpr (K == 4) {
    // Lane pairs: the even lane keeps values 0 and 1, the odd 2 and 3; then pairs of pairs: the lane
    // with bit 1 clear keeps the first of its two, the other the second. Lane l then holds the sum of
    // value 2 * (l & 1) + ((l >> 1) & 1) over its four lanes.
    T keep0 = odd ? s.v[2] : s.v[0], keep1 = odd ? s.v[3] : s.v[1];
    const T send0 = odd ? s.v[0] : s.v[2], send1 = odd ? s.v[1] : s.v[3];
    keep0 += __shfl_xor_sync(0xffffffffu, send0, 1);
    keep1 += __shfl_xor_sync(0xffffffffu, send1, 1);
    const bool second = lane & 2u;
    value = second ? keep1 : keep0;
    value += __shfl_xor_sync(0xffffffffu, second ? keep0 : keep1, 2);
  } else {
    value = odd ? s.v[1] : s.v[0];  // lane l: the sum of value l & 1 over its pair, then its four lanes
    value += __shfl_xor_sync(0xffffffffu, odd ? s.v[0] : s.v[1], 1);
    value += __shfl_xor_sync(0xffffffffu, value, 2);
  }
  value += __shfl_xor_sync(0xffffffffu, value, 4);
  value += __shfl_xor_sync(0xffffffffu, value, 8);
  value += __shfl_xor_sync(0xffffffffu, value, 16);
  Sums<T, K> out;
  if constexpr (K == 4) {
    out.v[0] = __shfl_sync(0xffffffffu, value, 0);
    out.v[1] = __shfl_sync(0xffffffffu, value, 2);
    out.v[2] = __shfl_sync(0xffffffffu, value, 1);
    out.v[3] = __shfl_sync(0xffffffffu, value, 3);
  } else {
    out.v[0] = __shfl_sync(0xffffffffu, value, 0);
    out.v[1] = __shfl_sync(0xffffffffu, value, 1);
  }
  return out;
}

// The combination over the row_threads threads of each row group, the same bits in every thread of
// the group (a butterfly of symmetric combinations). smem: kWarp values, used where a row spans
// several warps (then the block holds that one row, and every thread of the block must call this).
// kTryEqual: see Moments::combine_lanes.
template <bool kTryEqual = false, typename S>
__device__ __forceinline__ S row_reduce(S value, int row_threads, S* smem) {
  const int width = row_threads < core::kWarp ? row_threads : core::kWarp;
  if constexpr (kScatters<S>) {
    if (width == core::kWarp) {
      value = warp_sum_scattered(value);
    } else {
      for (int offset = width / 2; offset > 0; offset /= 2)
        value = S::combine(value, value.shuffle_xor(offset));
    }
  } else {
    for (int offset = width / 2; offset > 0; offset /= 2)
      value = S::template combine_lanes<kTryEqual>(value, value.shuffle_xor(offset));
  }
  if (row_threads <= core::kWarp) return value;
  const int warp = threadIdx.x / core::kWarp, lane = threadIdx.x % core::kWarp;
  const int warps = row_threads / core::kWarp;
  __syncthreads();  // every thread is done with the previous reduction's smem
  if (lane == 0) smem[warp] = value;
  __syncthreads();
  value = lane < warps ? smem[lane] : S{};
  if constexpr (kScatters<S>) {
    value = warp_sum_scattered(value);
  } else {
    for (int offset = core::kWarp / 2; offset > 0; offset /= 2) {
      value = S::template combine_lanes<kTryEqual>(value, value.shuffle_xor(offset));
    }
  }
  return value;
}

// The combination of each block's `value` over the blocks of the cluster, in the order of their
// ranks, so that every block gets the same bits. slot: this block's shared memory for its value (a
// slot the other blocks may read until the next cluster barrier). Every thread of the cluster must
// call this; the caller must pass one more cluster barrier before a block ends or reuses the slot.
template <typename S>
__device__ __forceinline__ S cluster_reduce(const S& value, S* slot, int cluster) {
#ifdef ROW_NORM_CLUSTERS
  const auto group = cooperative_groups::this_cluster();
  if (threadIdx.x == 0) *slot = value;
  group.sync();
  S total = *group.map_shared_rank(slot, 0);
  for (int rank = 1; rank < cluster; ++rank) total = S::combine(total, *group.map_shared_rank(slot, rank));
  return total;
#else
  return value;  // never launched with a cluster (see kernel_has_clusters)
#endif
}

__device__ __forceinline__ void cluster_sync() {
#ifdef ROW_NORM_CLUSTERS
  cooperative_groups::this_cluster().sync();
#endif
}

// A cluster barrier in two halves: every thread of the block arrives, and later waits until every
// thread of the cluster has arrived; in between, the block goes on working. The arrival orders none
// of the thread's memory operations (.relaxed): the staged forward, its one user, orders what its
// peers must see after the wait (its barriers' initialization) by fence.mbarrier_init. (.aligned: all
// threads of a warp execute each half together, as every thread of the block must reach both.)
__device__ __forceinline__ void cluster_arrive_relaxed() {
#ifdef ROW_NORM_CLUSTERS
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void cluster_wait() {
#ifdef ROW_NORM_CLUSTERS
  asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#endif
}

__device__ __forceinline__ unsigned cluster_rank() {
#ifdef ROW_NORM_CLUSTERS
  return cooperative_groups::this_cluster().block_rank();
#else
  return 0;
#endif
}

// bfloat16 vectors are converted a 32-bit word at a time (core::load_opmath_by_words) where they are
// already in registers: the forward's statistics and output, the parameters and the residual add's x
// and residual where it loads them first (kLoadsFirst; read whole by load_vector first), and the
// backward's vectors of x, grad_out and grad_residual_out (read whole from its stages or into
// registers); the forward's other rows read from memory are converted element by element
// (core::load_opmath). Lab P2 of the example's benchmarks/results/runs/ (H200, bfloat16,
// 32768 x 4096, share of the copy rate), when the word-wise conversion still read global memory itself
// and so split each 16-byte load into four: the residual-add RMSNorm forward ran at 77% with neither,
// 79% with both, 93% with the words in registers only; the RMSNorm forward+backward at 83% with
// neither and 63% with both. In the backward, element by element, each odd element took two
// instructions (PRMT, then a shift; nvcc 13.0, sm_90a) where a word takes one an element.
//
// Makes the compiler forget what v holds (an empty asm statement that may change each 32-bit word),
// so that v is converted to opmath_t again where it is used next instead of the converted values
// being kept from an earlier use through the row's reduction (nvcc 13.0, sm_90a: the bfloat16
// RMSNorm forward at eight vectors a thread took 128 registers and 88 bytes of spills without it,
// 110 registers and none with it).
template <typename T, int kVec>
__device__ __forceinline__ void forget(core::Vector<T, kVec>& v) {
  constexpr int kWords = static_cast<int>(sizeof(v)) / 4;
  if constexpr (kWords * 4 == static_cast<int>(sizeof(v))) {
    uint32_t words[kWords];
    memcpy(words, &v, sizeof(v));
#pragma unroll
    for (int k = 0; k < kWords; ++k) asm volatile("" : "+r"(words[k]));
    memcpy(&v, words, sizeof(v));
  }
}

// The vector at p, read with as few load instructions as its size allows (one for 16 bytes). Where
// the elements of a vector in global memory were converted one by one (core::load_opmath on a
// reference to it), nvcc 13.0 read each element with a load of its own: the weight and bias of the
// forward's output pass and the weight of both backward passes took eight 2-byte loads a vector in
// the 16-bit types (runs/q/ptx_loads.txt). Nsight Compute had the L1 cache of the bfloat16 LayerNorm
// forward at 32768 x 4096 at 90% of its throughput with DRAM at 54% (lab P1); read whole, that
// forward ran at 88% of the copy rate against 67%, and the forward+backward took less time in 26 of
// the 27 cells of the big shapes (lab Q2, H200; float32 RMSNorm at 8192 x 8192: 1% more).
// (The read goes through a pointer to the word type: every caller's vector is aligned to its own
// size, and a thread reads back only what it wrote before a barrier of its block, so the compiler
// cannot move the read across the write.)
template <typename V>
__device__ __forceinline__ V load_vector(const V* p) {
  constexpr int kBytes = static_cast<int>(sizeof(V));
  if constexpr (kBytes % 4 == 0) {
    using Word =
        std::conditional_t<kBytes % 16 == 0, uint4, std::conditional_t<kBytes % 8 == 0, uint2, uint32_t>>;
    Word words[kBytes / sizeof(Word)];
#pragma unroll
    for (int k = 0; k < kBytes / static_cast<int>(sizeof(Word)); ++k)
      words[k] = reinterpret_cast<const Word*>(p)[k];
    V v;
    memcpy(&v, words, sizeof(v));
    return v;
  } else {
    return *p;  // a 2-byte element: one load anyway
  }
}

// The vector at p, read with an L2 evict_last policy (as Triton's eviction_policy="evict_last"): for
// the parameters, which every row reads, so that their lines stay in L2 while the rows stream past.
// Read without it, part of them was evicted and read again from memory: lab BZ of the example's
// benchmarks/results/runs/ (H200, device time, the benchmark without torch.compile) had the
// residual-add LayerNorm's float32 forward at 4096 x 16384 at 320.3 us without the policy and 289.1
// with it (80.8% and 89.7% of the copy rate), the same kernel at 287.5 to 288.7 once torch.compile's
// forward, whose Inductor kernel reads weight and bias so, had run on the same parameters (lab BY);
// no cell of its benchmark that is not host-bound took longer than 1.002 of the time without. Lab
// CA: LayerNorm's such cells 0.965 to 1.000. 16-byte vectors only, as the labs timed them (a float32
// weight beside 16-bit x, 32 bytes a vector, cost nvcc 13.0 up to 15 more registers in the
// backward); others, and builds for GPUs before sm_80 (which have no such policy), as load_vector.
template <typename V>
__device__ __forceinline__ V load_evict_last(const V* p) {
#ifdef ROW_NORM_L2_POLICY
  if constexpr (sizeof(V) == 16) {
    uint64_t policy;
    asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    uint4 words;
    asm("ld.global.L1::evict_last.L2::cache_hint.v4.u32 { %0, %1, %2, %3 }, [%4], %5;"
        : "=r"(words.x), "=r"(words.y), "=r"(words.z), "=r"(words.w)
        : "l"(p), "l"(policy));
    V v;
    memcpy(&v, &words, sizeof(v));
    return v;
  }
#endif
  return load_vector(p);
}

// The vector at p, read as streaming (ld.global.cs: evict first, as Inductor reads a row the last
// time) where it is 16 bytes; others as load_vector. See read_residual_operand in forward_rows.
template <typename V>
__device__ __forceinline__ V load_streaming(const V* p) {
  if constexpr (sizeof(V) == 16) {
    const uint4 words = __ldcs(reinterpret_cast<const uint4*>(p));
    V v;
    memcpy(&v, &words, sizeof(v));
    return v;
  } else {
    return load_vector(p);
  }
}

// Rows whose length is not a multiple of the vector width (kShifted): each row's vectors start at
// its first 16-byte boundary, `head` elements in (the same in every tensor of the row: the host
// checks that their pointers lie equally far from a boundary). The elements before them and after
// the last whole vector, the row's edges (fewer than 2 kVec), are read one at a time, at most one a
// thread; the parameters of a row's vectors, shifted by head against their own boundaries, are read
// in the widest loads their address allows (load_unaligned). Before, such rows were read one element
// at a time throughout: the bfloat16 RMSNorm forward at 8192 x 4095 ran at 34% of the copy rate in
// call X11, 91% in call X13.
//
// The elements before the first vector boundary at or after `row`.
template <typename scalar_t, int kVec>
__device__ __forceinline__ int head_elements(const scalar_t* row) {
  constexpr uintptr_t kBytes = sizeof(scalar_t) * kVec;
  const uintptr_t address = reinterpret_cast<uintptr_t>(row);
  return static_cast<int>((kBytes - address % kBytes) % kBytes / sizeof(scalar_t));
}

// The column of a row's edge `k` (k < edges): the head's elements, then those after the vectors.
__device__ __forceinline__ int64_t edge_column(int k, int head, int64_t col_vecs, int vec) {
  return k < head ? k : col_vecs * vec + k;
}

// Parameters where a row's vectors do not start on their own vector boundaries (kShifted): the
// vector P (16 or 32 bytes) at `first`, read in loads of kChunk bytes (16, 8 or 4), or, for 2-byte
// elements 2 bytes past a 4-byte boundary (kChunk 2), in 4-byte words shifted by one element.
template <typename P, int kChunk, typename param_t>
__device__ __forceinline__ P load_unaligned_as(const param_t* first) {
  constexpr int kWords = static_cast<int>(sizeof(P) / 4);
  uint32_t out[kWords];
  if constexpr (kChunk == 2 && sizeof(param_t) == 2) {
    // The words from the one holding first[1]: each output word is the high half of one word and
    // the low half of the next, the first and last halves read on their own (nothing outside the
    // vector's elements is read).
    const uint32_t* words = reinterpret_cast<const uint32_t*>(first + 1);
    uint32_t w[kWords + 1];
    w[0] = static_cast<uint32_t>(*reinterpret_cast<const uint16_t*>(first)) << 16;
#pragma unroll
    for (int k = 1; k < kWords; ++k) w[k] = words[k - 1];
    w[kWords] = *reinterpret_cast<const uint16_t*>(first + 2 * kWords - 1);
#pragma unroll
    for (int k = 0; k < kWords; ++k) out[k] = __byte_perm(w[k], w[k + 1], 0x5432);
  } else {
    using C = std::conditional_t<kChunk == 16, uint4, std::conditional_t<kChunk == 8, uint2, uint32_t>>;
    C c[sizeof(P) / sizeof(C)];
#pragma unroll
    for (int k = 0; k < static_cast<int>(sizeof(P) / sizeof(C)); ++k)
      c[k] = reinterpret_cast<const C*>(first)[k];
    memcpy(out, c, sizeof(P));
  }
  P v;
  memcpy(&v, out, sizeof(P));
  return v;
}

// The widest kChunk that the address of `first` allows (up to 4 bytes unless kWide). Every vector
// of a row has the same, as its vectors lie 16 or 32 bytes apart.
template <bool kWide, typename param_t>
__device__ __forceinline__ int chunk_of(const param_t* first) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(first);
  if (kWide && address % 16 == 0) return 16;
  if (kWide && address % 8 == 0) return 8;
  return address % 4 == 0 || sizeof(param_t) != 2 ? 4 : 2;
}

// load_unaligned_as with the chunk that `first` allows, decided at each load.
template <typename P, bool kWide, typename param_t>
__device__ __forceinline__ P load_unaligned(const param_t* first) {
  switch (chunk_of<kWide>(first)) {
    case 16:
      return load_unaligned_as<P, 16>(first);
    case 8:
      return load_unaligned_as<P, 8>(first);
    case 4:
      return load_unaligned_as<P, 4>(first);
    default:
      return load_unaligned_as<P, 2>(first);
  }
}

// Column vector j's kVec parameters (weight, bias): a vector of p, or (kShifted) the kVec elements
// from column head + j kVec.
template <typename P, bool kShifted, bool kWide = true, typename param_t>
__device__ __forceinline__ P load_parameter_vector(const param_t* __restrict__ p, int head, int64_t j) {
  if constexpr (kShifted) {
    return load_unaligned<P, kWide>(p + head + j * static_cast<int64_t>(sizeof(P) / sizeof(param_t)));
  } else {
    return load_vector(reinterpret_cast<const P*>(p) + j);
  }
}

// The workspace's vector W of columns from p: one vector, or (kShifted) in 4-byte words.
template <bool kShifted, typename W, typename T>
__device__ __forceinline__ W load_columns(const T* p) {
  if constexpr (kShifted) {
    return load_parameter_vector<W, true, false>(p, 0, 0);
  } else {
    return load_vector(reinterpret_cast<const W*>(p));
  }
}
template <bool kShifted, typename W, typename T>
__device__ __forceinline__ void store_columns(T* p, const W& v) {
  if constexpr (kShifted) {
#pragma unroll
    for (int e = 0; e < static_cast<int>(sizeof(W) / sizeof(T)); ++e) p[e] = v.v[e];
  } else {
    *reinterpret_cast<W*>(p) = v;
  }
}

// Column vector j's kVec parameters as opmath_t, read as a vector of p (kChunk 0: rows that start on
// a vector boundary), or (shifted rows) from column head + j kVec in loads of kChunk bytes (see
// load_unaligned_as), or in the widest loads that each address allows (kChunk -1: up to 16 bytes if
// kWide, else 4-byte words, shifted words for 2-byte parameters 2 bytes off a word). The forward
// decides the chunk once a row and builds its output pass for each; the backward decides at each
// load (see backward_kernel). Decided at each load (lab O2, H200), the bfloat16 LayerNorm forward at
// 8192 x 4095 took 52.4 us, the float16 51.5; with a build for each chunk (call X12), 44.5 and 45.1.
// Aligned vectors (kChunk 0) are read with the L2 evict_last policy (load_evict_last).
template <int kChunk, bool kWide, typename opmath_t, typename param_t, int kVec>
__device__ __forceinline__ void load_parameter(const param_t* __restrict__ p, int head, int64_t j,
                                               opmath_t (&out)[kVec]) {
  using P = core::Vector<param_t, kVec>;
  if constexpr (kChunk == 0) {
    core::load_opmath_by_words(load_evict_last(reinterpret_cast<const P*>(p) + j), out);
  } else if constexpr (kChunk < 0) {
    core::load_opmath_by_words(load_parameter_vector<P, true, kWide>(p, head, j), out);
  } else {
    core::load_opmath_by_words(load_unaligned_as<P, kChunk>(p + head + j * kVec), out);
  }
}

// What a weight w scales its column by: 1 + w for a zero-centred weight (kWeightOffset 1), else w
// itself. (Written w + 0 where a norm has no offset, the add stays: nvcc keeps an add of 0.0, which
// turns -0 into +0, one add an element in the PTX: 33 adds of 0 in the bfloat16 LayerNorm forward at
// four vectors a thread against 1, runs/f/ptxas_forward_2c8cde3.txt. Lab F of the example's
// benchmarks/results/runs/ (H200, device time), without it: LayerNorm's bfloat16 forward+backward at
// 32768 x 4096 358.6 us against 371.9, RMSNorm's bfloat16 at 1024 x 65536 203.6 against 208.5; no case
// slower by more than 0.5%.)
template <template <typename> class Norm, typename T>
__device__ __forceinline__ T weight_scale(T w) {
  if constexpr (Norm<T>::kWeightOffset != 0) {
    return w + T(Norm<T>::kWeightOffset);
  } else {
    return w;
  }
}

// The staged forward's sums of a row (forward_staged_kernel): RMSNorm's sum of x^2; LayerNorm's sums
// of d and d^2, d = x - about (row_origin, or the mean where the row is summed again: kFarShift), as
// the backward takes them. Sums add: a step of the reduction costs a shuffle and an add a sum, where
// Chan's combination (Moments) costs a division, and a vote. Lab J2 of the example's
// benchmarks/results/runs/j/ (H200, device time, both with the staged rows 128-byte aligned against
// Moments and 16-byte): LayerNorm's forward at 1024 x 65536 took 0.89 to 0.92 of the time, the
// residual-add LayerNorm's 0.86 to 0.90. forward_rows keeps Moments: with these sums there too (lab
// J1), some of its cells took less time (LayerNorm's forward at 8192 x 4095 0.90 to 0.92) and others
// more (LayerNorm's float32 forward at 4096 x 16384 and 8192 x 8192 1.10 to 1.11, the residual-add
// LayerNorm's at 4096 x 16384 1.24), where nvcc gave some of its kernels more registers (LayerNorm's
// 16-bit kernel of eight vectors a thread 81 against 64) or spills; which rows should take the sums
// there is left to a lab of forward_rows alone.
template <typename T, bool kCentered>
using ForwardSums = Sums<T, kCentered ? 2 : 1>;

// Adds the elements f (less `about`, for LayerNorm) to `sums`.
template <bool kCentered, typename T, int kCount>
__device__ __forceinline__ void add_elements(ForwardSums<T, kCentered>& sums, const T (&f)[kCount], T about) {
#pragma unroll
  for (int e = 0; e < kCount; ++e) {
    if constexpr (kCentered) {
      const T d = f[e] - about;
      sums.v[0] += d;
      sums.v[1] += d * d;
    } else {
      sums.v[0] += f[e] * f[e];
    }
  }
}

// A row's mean of d (LayerNorm; 0 for RMSNorm) and variance (RMSNorm: the mean of x^2) from its
// ForwardSums over n elements.
template <bool kCentered, typename T>
struct RowStatistics {
  T d_mean, variance;

  __device__ __forceinline__ RowStatistics(const ForwardSums<T, kCentered>& sums, T n) {
    if constexpr (kCentered) {
      d_mean = sums.v[0] / n;
      variance = sums.v[1] / n - d_mean * d_mean;
    } else {
      d_mean = 0;
      variance = sums.v[0] / n;
    }
  }

  // Whether the row must be summed again about its mean (kFarShift), or its squares overflowed.
  __device__ __forceinline__ bool far() const {
    return kCentered && (lies_far(d_mean, variance) || !(variance <= std::numeric_limits<T>::max()));
  }

  __device__ __forceinline__ T rstd(T eps) const {
    return T(1) / sqrt((kCentered && variance < T(0) ? T(0) : variance) + eps);  // (rounding)
  }
};

// ---------------------------------------------------------------------------------------------
// Forward
// ---------------------------------------------------------------------------------------------
// Whether the forward kernel keeps room for two blocks of kMaxRowThreads threads on one SM: for a
// float32 row held in registers at kForwardItems 16-byte vectors a thread, without the residual add,
// so that nvcc keeps it within 64 registers a thread and an SM normalizes a second row while it reads
// the first. Left to itself, nvcc gave the LayerNorm kernel 71 registers; at 4096 x 16384 (512
// threads a row) one block then filled an SM, whose reads stopped at every row's reduction: 63% of
// the copy rate (lab P1 of the example's benchmarks/results/runs/, H200). Within 64, that kernel
// spills 8 bytes since its statistics take one look at the registers (lab Q3: 93% of the copy rate
// at 4096 x 16384, against 95% with two looks and no spill; runs/q/ptxas/). Rows of single elements
// (an odd N) ran slower so (the float32 RMSNorm forward at 8192 x 4095: 69% of the copy rate in call
// X4, 60% in call X7 with this build, 82% in call X9 without it).
// The 16-bit types, the passes over a row that registers do not hold and the residual add need more
// registers: capped at 64, they spilled more (nvcc 13.0, sm_90a). Asked for one block, nvcc gave most
// kernels more registers than it chooses unasked: the others keep its own choice.
template <typename scalar_t, int kVec, int kItems, bool kCached, bool kResidual>
constexpr bool kTwoForwardBlocks =
    std::is_same_v<scalar_t, float> && kVec == 4 && kItems == kForwardItems && kCached && !kResidual;

// Whether the residual-add forward reads x and residual of all of a pass's items (whole vectors)
// before it writes their sums. Item after item, nvcc 13.0 (sm_90a) issued the float32 kernels' loads
// of an item only after the previous item's sum was stored, so that a thread had one item's loads in
// flight (lab BC of the example's benchmarks/results/runs/, bc/sass_bc.txt), after lab BB0 had Nsight
// Compute put the residual-add RMSNorm's forward 6.0 to 6.6% behind Liger-Kernel's, whose Triton
// source loads the rows of x and residual whole before it stores their sum, and the residual-add
// LayerNorm's 4.1 to 6.9% behind torch.compile's. Labs BC and BD (H200, forward device time over
// main's at the benchmark's shapes but 16 x 4096; bc/summary_bc.txt, bd/summary_bd.txt) had loads
// first:
// - float32, up to four vectors a thread: 0.906 to 0.989 (both norms, rows shifted or not);
// - float32, eight vectors a thread held in registers from a vector boundary: the residual-add
//   RMSNorm 0.900 at 4096 x 16384 and 0.987 at 4096 x 1024 (a warp a row); the residual-add
//   LayerNorm 0.948 and 1.081, in one kernel, so that its eight keep the order item after item (lab
//   BC's loads in groups of four items lost in both norms: 1.020 to 1.116). The residual-add
//   RMSNorm's other builds of eight (shifted rows; rows read in passes, kCached false) were not timed
//   and took more registers so (bg/ptxas_bg.txt): they keep the order item after item;
// - 16-bit rows of four vectors a thread or fewer: the residual-add LayerNorm's that start on a
//   vector boundary 0.952 to 0.997 (eight, in groups of four: 1.147 and 1.205; see
//   pick_forward_items for 4096 x 16384), its shifted rows 0.988 and 1.068; the residual-add
//   RMSNorm's shifted rows 0.923 and 0.953 (8192 x 4095, the one shape timed), those that start on a
//   vector boundary, whose SASS already had every load but one first, 1.022 to 1.072.
// Not timed, and taken by the rule all the same: one vector a thread, rows of single elements
// (kVec 1). float64 was not timed and keeps the order item after item.
template <typename scalar_t, bool kCentered, int kItems, bool kCached, bool kShifted>
constexpr bool kLoadsFirst =
    kItems <= 4
        ? std::is_same_v<scalar_t, float> || (sizeof(scalar_t) == 2 && (kCentered ? !kShifted : kShifted))
        : std::is_same_v<scalar_t, float> && !kCentered && kCached && !kShifted;

// kItems vectors a thread of each of `passes` slices of the row; kCached: one slice, kept in
// registers between the steps. cluster > 1: the blocks of a cluster share one row, block r of it
// taking the r-th slice of kItems x row_threads vectors (passes is then 1). kShifted: see
// head_elements (the edges are read again for the output, by the first block of a cluster).
template <template <typename> class Norm, typename scalar_t, typename param_t, int kVec, int kItems,
          bool kCached, bool kShifted>
__device__ __forceinline__ void forward_rows(
    const scalar_t* __restrict__ x, const scalar_t* __restrict__ residual, const param_t* __restrict__ weight,
    const param_t* __restrict__ bias, scalar_t* __restrict__ y, scalar_t* __restrict__ residual_out,
    int64_t rows, int64_t cols, int row_threads, int passes, int cluster, at::opmath_type<scalar_t> eps) {
  using opmath_t = at::opmath_type<scalar_t>;
  using V = core::Vector<scalar_t, kVec>;
  using P = core::Vector<param_t, kVec>;
  constexpr bool kCentered = Norm<opmath_t>::kCentered;
  constexpr bool kBias = Norm<opmath_t>::kBias;
  constexpr bool kResidual = Norm<opmath_t>::kResidual;
  constexpr int kParameterBytes = kItems * static_cast<int>(sizeof(P)) * (kBias ? 2 : 1);
  constexpr bool kPrefetch =
      kCached && (kParameterBytes <= kPrefetchParameterBytes ||
                  (!kBias && sizeof(param_t) == 2 && kParameterBytes <= kPrefetchWeightBytes));
  using M = Moments<opmath_t, kCentered>;
  __shared__ M smem[core::kWarp];
  __shared__ M cluster_slot;
  const int t = threadIdx.x % row_threads;
  const int64_t block_row = cluster > 1 ? blockIdx.x / cluster : blockIdx.x;
  const int64_t row = block_row * (blockDim.x / row_threads) + threadIdx.x / row_threads;
  const bool active = row < rows;  // inactive threads still take part in the reductions
  const int64_t first = cluster > 1 ? static_cast<int64_t>(cluster_rank()) * kItems * row_threads : 0;
  const int64_t row_offset = (active ? row : 0) * cols;
  const int head = kShifted ? head_elements<scalar_t, kVec>(x + row_offset) : 0;
  const int64_t col_vecs = (cols - head) / kVec;
  // This thread's edge of the row, if any (kShifted).
  const int edges = static_cast<int>(cols - col_vecs * kVec);
  const bool has_edge = kShifted && active && first == 0 && t < edges;
  const int64_t edge = row_offset + edge_column(t, head, col_vecs, kVec);
  const V* x_row = reinterpret_cast<const V*>(x + row_offset + head);
  // With a residual add: the row of residual, and that of the sum, which the thread writes when it
  // first reads x and reads back (its own writes) where the row takes several passes.
  const V* residual_row = reinterpret_cast<const V*>(kResidual ? residual + row_offset + head : nullptr);
  V* sum_row = reinterpret_cast<V*>(kResidual ? residual_out + row_offset + head : nullptr);
  if (kCached) passes = 1;
  V items[kItems];
  P w_items[kPrefetch ? kItems : 1], b_items[kPrefetch && kBias ? kItems : 1];
  const auto column = [&](int pass, int i) {
    return first + (static_cast<int64_t>(pass) * kItems + i) * row_threads + t;
  };
  const auto valid = [&](int pass, int i) { return active && column(pass, i) < col_vecs; };
  // The residual add's reads of x and residual where they are not loaded first (kLoadsFirst): whole
  // vectors in the 16-bit types; in float32 and float64 whole vectors as streaming (load_streaming).
  // Plain whole-vector loads there were hoisted by nvcc ahead of the adds, and the float32 kernels
  // took up to 74 registers a thread instead of 64 (runs/q/ptxas/), so these read element by element
  // until lab CA: lab Q1 of the example's benchmarks/results/runs/ (H200), at 32768 x 4096, had the
  // bfloat16 forward at 98% of the copy rate with whole vectors against 93%, the float32 at 93%
  // against 96% (float64 was not timed). Lab CA (H200, device time, the benchmark without
  // torch.compile, with the parameters read by load_evict_last in both): the residual-add
  // LayerNorm's float32 forward at 4096 x 16384, eight vectors a thread, 284.6 us streaming against
  // 290.9 element by element (91.5% and 89.3% of the copy rate; nvcc 13.0 kept it at 64 registers),
  // no cell of its benchmark that is not host-bound beyond 1.006 of the time with neither change.
  // (Streaming reads of the rows loaded first as well, lab BZ's ldcs: up to 1.042, at float32
  // 32768 x 4096.)
  const auto read_residual_operand = [](const V* p, opmath_t(&out)[kVec]) {
    if constexpr (sizeof(scalar_t) == 2) {
      core::load_opmath(load_vector(p), out);
    } else {
      core::load_opmath(load_streaming(p), out);
    }
  };
  // Item i's sum a + b, kept in items[i] as rounded to x's dtype (normalized so) and written.
  const auto write_sum = [&](int i, int64_t j, opmath_t(&a)[kVec], const opmath_t(&b)[kVec]) {
#pragma unroll
    for (int e = 0; e < kVec; ++e) a[e] += b[e];
    items[i] = core::round_to<scalar_t, kVec>(a);
    sum_row[j] = items[i];
  };
  const auto load = [&](int pass, bool first_read) {
    if constexpr (kResidual && kLoadsFirst<scalar_t, kCentered, kItems, kCached, kShifted>) {
      if (first_read) {
        V addends[kItems];
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          if (!valid(pass, i)) continue;
          items[i] = load_vector(x_row + column(pass, i));
          addends[i] = load_vector(residual_row + column(pass, i));
        }
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          if (!valid(pass, i)) continue;
          opmath_t a[kVec], b[kVec];
          core::load_opmath_by_words(items[i], a);
          core::load_opmath_by_words(addends[i], b);
          write_sum(i, column(pass, i), a, b);
        }
        return;
      }
    }
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if (!valid(pass, i)) continue;
      const int64_t j = column(pass, i);
      if constexpr (kResidual) {
        if (first_read) {
          opmath_t a[kVec], b[kVec];
          read_residual_operand(x_row + j, a);
          read_residual_operand(residual_row + j, b);
          write_sum(i, j, a, b);
        } else {
          items[i] = load_vector(sum_row + j);
        }
      } else {
        items[i] = load_vector(x_row + j);
      }
    }
  };
  // The thread's edge element (has_edge), as load's vectors: x (+ residual, the sum written at the
  // first read and read back after).
  const auto edge_value = [&](bool first_read) -> opmath_t {
    if constexpr (kResidual) {
      if (!first_read) return static_cast<opmath_t>(residual_out[edge]);
      const scalar_t sum =
          static_cast<scalar_t>(static_cast<opmath_t>(x[edge]) + static_cast<opmath_t>(residual[edge]));
      residual_out[edge] = sum;
      return static_cast<opmath_t>(sum);
    } else {
      return static_cast<opmath_t>(x[edge]);
    }
  };
  // The statistics of the thread's elements: their sum of squares (RMSNorm), or their count, mean
  // and squared deviations from that mean (LayerNorm: from sums about a shift, below; the mean of
  // x - origin), one pass at a time, the passes combined.
  const opmath_t origin = kCentered ? row_origin<kResidual>(x, residual, row_offset) : opmath_t(0);
  M stats{};
  // LayerNorm's rows of several passes (never split over a cluster, which holds its slice in
  // registers): the thread's count and sum of x - base, base its first element, for the mend below.
  constexpr bool kMendFar = kCentered && !kCached;
  [[maybe_unused]] opmath_t base = 0, about_base = 0, own_count = 0, edge_v = 0;
  for (int pass = 0; pass < passes; ++pass) {
    load(pass, true);
    if (pass == 0 && kPrefetch) {
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        if (!valid(0, i)) continue;
        w_items[i] = load_parameter_vector<P, kShifted>(weight, head, column(0, i));
        if constexpr (kBias) b_items[i] = load_parameter_vector<P, kShifted>(bias, head, column(0, i));
      }
    }
    // LayerNorm: one look at the registers gives the sums of d = x - shift and of d^2, with shift
    // the thread's first element of the pass, so that sum(d^2) - sum(d)^2 / count loses no more
    // digits than the spread of the thread's own elements allows. (With two looks, the mean's and then
    // the squared deviations', Nsight Compute had the bfloat16 forward at 87% of the SMs' compute
    // throughput: lab Q2 of the example's benchmarks/results/runs/.)
    opmath_t shift = 0;
    if constexpr (kCentered) {
      if (valid(pass, 0)) {
        opmath_t f[kVec];
        core::load_opmath_by_words(items[0], f);
        shift = f[0];
      }
    }
    opmath_t sum = 0, squares = 0;
    int count = 0;
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if (!valid(pass, i)) continue;
      opmath_t f[kVec];
      core::load_opmath_by_words(items[i], f);
      count += kVec;
#pragma unroll
      for (int e = 0; e < kVec; ++e) {
        const opmath_t d = f[e] - shift;
        if constexpr (kCentered) sum += d;
        squares += d * d;
      }
    }
    stats = M::combine(stats, M::of_sums(count, shift - origin, sum, squares));
    if constexpr (kMendFar) {
      if (pass == 0) base = shift;
      about_base += static_cast<opmath_t>(count) * (shift - base) + sum;
      own_count += static_cast<opmath_t>(count);
    }
  }
  if (has_edge) {
    const opmath_t v = edge_value(true);
    edge_v = v;
    M part{};
    if constexpr (kCentered) {
      part = {opmath_t(1), v - origin, opmath_t(0)};
    } else {
      part.m2 = v * v;
    }
    stats = M::combine(stats, part);
  }
  stats = row_reduce<!kShifted>(stats, row_threads, smem);  // shifted rows: some threads hold an edge
  if (cluster > 1) stats = cluster_reduce(stats, &cluster_slot, cluster);
  const opmath_t n = static_cast<opmath_t>(cols);
  opmath_t mean = kCentered ? origin + stats.mean : opmath_t(0);
  if constexpr (kMendFar) {
    // Where the origin lies far from the row's mean (kFarShift), each combination of Moments rounds
    // its mean at that distance, and a row of many passes takes many: at 3 x 300001, a first element
    // of 1000 among values of spread 2, float32 y came up to 1.19 times the far-row test's allowance
    // off (lab AE of the RMSNorm example's benchmarks/results/runs/ae/). Such a row's mean is mended
    // by the sum over its threads of x - mean, each thread's from its sum about its own first element
    // (which lies near its other elements): 0.08 to 0.15 of that allowance in lab AE. The block
    // decides as one, so that each of its threads takes part in the reduction.
    const opmath_t variance = stats.m2 / n;
    const bool far = lies_far(stats.mean, variance);
    // (cluster is 1 here: a cluster holds its slices in registers, kCached; were a kernel of several
    // passes launched on clusters, its block's sum would cover its own slice alone.)
    if (cluster == 1 && __syncthreads_or(far)) {
      __shared__ Sums<opmath_t, 1> mend_smem[core::kWarp];
      Sums<opmath_t, 1> part{};
      part.v[0] = own_count * (base - mean) + about_base + (has_edge ? edge_v - mean : opmath_t(0));
      part = row_reduce(part, row_threads, mend_smem);
      mean += part.v[0] / n;
    }
  }
  const opmath_t rstd = opmath_t(1) / sqrt(stats.m2 / n + eps);
  if (has_edge) {
    opmath_t f = (edge_value(false) - mean) * rstd *
                 weight_scale<Norm>(static_cast<opmath_t>(weight[edge - row_offset]));
    if constexpr (kBias) f += static_cast<opmath_t>(bias[edge - row_offset]);
    y[edge] = static_cast<scalar_t>(f);
  }
  // The output pass, built for each chunk of the parameters' loads (see load_parameter): in shifted
  // rows, the chunk the row's parameters allow where weight and bias allow the same, else decided at
  // each load (kChunk -1); kChunk 0: aligned vectors.
  const auto normalize = [&](auto chunk_c) {
    [[maybe_unused]] constexpr int kChunk = decltype(chunk_c)::value;  // (unused where prefetched)
    V* y_row = reinterpret_cast<V*>(y + row * cols + head);
    for (int pass = 0; pass < passes; ++pass) {
      if (!kCached) load(pass, false);
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        if (!valid(pass, i)) continue;
        const int64_t j = column(pass, i);
        opmath_t f[kVec], w[kVec];
        [[maybe_unused]] opmath_t b[kVec];
        forget(items[i]);
        core::load_opmath_by_words(items[i], f);
        if constexpr (kPrefetch) {
          forget(w_items[i]);
          core::load_opmath_by_words(w_items[i], w);
          if constexpr (kBias) forget(b_items[i]), core::load_opmath_by_words(b_items[i], b);
        } else {
          load_parameter<kChunk, true>(weight, head, j, w);
          if constexpr (kBias) load_parameter<kChunk, true>(bias, head, j, b);
        }
#pragma unroll
        for (int e = 0; e < kVec; ++e) {
          f[e] = (f[e] - mean) * rstd * weight_scale<Norm>(w[e]);
          if constexpr (kBias) f[e] += b[e];
        }
        y_row[j] = core::round_to<scalar_t, kVec>(f);
      }
    }
  };
  if (active) {
    if constexpr (kShifted && !kPrefetch) {
      const int chunk = chunk_of<true>(weight + head);
      bool mixed = false;  // weight and bias allow different chunks (then decided at each load)
      if constexpr (kBias) mixed = chunk_of<true>(bias + head) != chunk;
      if (mixed) {
        if constexpr (kBias) normalize(std::integral_constant<int, -1>{});
      } else if (chunk == 16) {
        normalize(std::integral_constant<int, 16>{});
      } else if (chunk == 8) {
        normalize(std::integral_constant<int, 8>{});
      } else if (chunk == 4 || sizeof(param_t) != 2) {
        normalize(std::integral_constant<int, 4>{});
      } else if constexpr (sizeof(param_t) == 2) {
        normalize(std::integral_constant<int, 2>{});
      }
    } else {
      normalize(std::integral_constant<int, 0>{});
    }
  }
  if (cluster > 1) cluster_sync();  // no block leaves while another may still read its slot
}

// The forward kernel, in two builds of the same code: nvcc's own choice of registers, and one that
// keeps room for two blocks of kMaxRowThreads threads on an SM (see kTwoForwardBlocks).
#define ROW_NORM_FORWARD_PARAMETERS                                                                          \
  const scalar_t *__restrict__ x, const scalar_t *__restrict__ residual, const param_t *__restrict__ weight, \
      const param_t *__restrict__ bias, scalar_t *__restrict__ y, scalar_t *__restrict__ residual_out,       \
      int64_t rows, int64_t cols, int row_threads, int passes, int cluster, at::opmath_type<scalar_t> eps
template <template <typename> class Norm, typename scalar_t, typename param_t, int kVec, int kItems,
          bool kCached, bool kShifted>
__global__ void __launch_bounds__(kMaxRowThreads) forward_kernel(ROW_NORM_FORWARD_PARAMETERS) {
  forward_rows<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted>(
      x, residual, weight, bias, y, residual_out, rows, cols, row_threads, passes, cluster, eps);
}
template <template <typename> class Norm, typename scalar_t, typename param_t, int kVec, int kItems,
          bool kCached, bool kShifted>
__global__ void __launch_bounds__(kMaxRowThreads, 2) forward_kernel_two_blocks(ROW_NORM_FORWARD_PARAMETERS) {
  forward_rows<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted>(
      x, residual, weight, bias, y, residual_out, rows, cols, row_threads, passes, cluster, eps);
}
#undef ROW_NORM_FORWARD_PARAMETERS

// The build of the forward kernel to launch for these parameters.
template <template <typename> class Norm, typename scalar_t, typename param_t, int kVec, int kItems,
          bool kCached, bool kShifted>
constexpr auto forward_kernel_for() {
  if constexpr (kTwoForwardBlocks<scalar_t, kVec, kItems, kCached, Norm<float>::kResidual>) {
    return forward_kernel_two_blocks<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted>;
  } else {
    return forward_kernel<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted>;
  }
}

// ---------------------------------------------------------------------------------------------
// Forward of wide rows, staged in shared memory
// ---------------------------------------------------------------------------------------------
// Rows wider than one block's registers hold (pick_forward_items gives 0), where their vectors are 16
// bytes from each row's start and the GPU has clusters: the blocks of a cluster share a row, and each
// copies its slice of the row (and of residual) into shared memory with one-dimensional bulk copies
// (cp.async.bulk, sm_90 on). A copy takes no registers and no thread while it runs, so a
// multiprocessor keeps as many slices in flight as its shared memory holds, where forward_rows keeps
// its slice in registers (eight vectors a thread: two blocks of 256 threads an SM in bfloat16). Then
// the slice's statistics are reduced over the block and the cluster (exchange_once), and the slice is
// normalized from shared memory and written.
//
// The copies complete on an mbarrier in the block's shared memory: the thread that starts them
// expects their bytes, every thread waits for its phase 0 (each block copies once).
__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Initializes `count` barriers from `barrier` on, each for one arrival (thread 0's, which expects the
// bytes that the copies, or the cluster's stores, then complete), visible to the copies and to the
// cluster's blocks.
__device__ __forceinline__ void copy_barrier_init(uint64_t* barrier, int count = 1) {
#ifdef ROW_NORM_CLUSTERS
  for (int i = 0; i < count; ++i) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(shared_address(barrier + i)) : "memory");
  }
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

// The one arrival on `barrier`, which then waits for `bytes` to be copied.
__device__ __forceinline__ void copy_barrier_expect(uint64_t* barrier, unsigned bytes) {
#ifdef ROW_NORM_CLUSTERS
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(barrier)),
               "r"(bytes)
               : "memory");
#endif
}

// `bytes` (a multiple of 16, both addresses 16-byte aligned) from global to shared memory, counted on
// `barrier` as they arrive.
__device__ __forceinline__ void bulk_copy(void* smem, const void* global, unsigned bytes, uint64_t* barrier) {
#ifdef ROW_NORM_CLUSTERS
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(
          shared_address(smem)),
      "l"(global), "r"(bytes), "r"(shared_address(barrier))
      : "memory");
#endif
}

// Waits until `barrier` completes its phase of parity `parity`. kClusterScope: and sees what the
// cluster's blocks wrote into this block's shared memory before their stores completed that phase.
// (The instruction's text with its semantics and scope, `order`: "" is .acquire.cta, the default.)
#define ROW_NORM_TRY_WAIT(order)                                            \
  asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity" order         \
               ".shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n" \
               : "=r"(done)                                                 \
               : "r"(shared_address(barrier)), "r"(parity)                  \
               : "memory")
template <bool kClusterScope = false>
__device__ __forceinline__ void copy_barrier_wait(uint64_t* barrier, unsigned parity) {
#ifdef ROW_NORM_CLUSTERS
  unsigned done = 0;
  do {
    if constexpr (kClusterScope) {
      ROW_NORM_TRY_WAIT(".acquire.cluster");
    } else {
      ROW_NORM_TRY_WAIT("");
    }
  } while (done == 0);
#endif
}
#undef ROW_NORM_TRY_WAIT

// The address of `p` (this block's shared memory) in the shared memory of the cluster's block `rank`.
__device__ __forceinline__ unsigned cluster_address(const void* p, unsigned rank) {
  unsigned address = 0;
#ifdef ROW_NORM_CLUSTERS
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(address) : "r"(shared_address(p)), "r"(rank));
#endif
  return address;
}

// Row sums exchanged between the blocks of a cluster that walks rows together (the backward), in
// kTurns turns: each block stores its sums of a row into every block's slot for it (st.async, sm_90
// on), whose bytes complete that block's mbarrier of the turn. A block thus waits only for its peers'
// sums. (A cluster barrier a row, cluster_reduce, took longer: labs B1 and B2 of the example's
// benchmarks/results/runs/ found the backward at 1024 x 65536 slower in clusters than the same work a
// block at 4096 x 16384, and faster with this exchange; the barrier's release semantics, which order
// a thread's earlier stores to global memory before it, are the likely cost.) Turn t's slots are
// stored again kTurns rows later, which a peer reaches only after this block's sums of the row in
// between, which it sends after a block barrier (row_reduce's: the block holds one row of more than a
// warp, see backward_cuda), so after every thread here has read turn t's slots and thread 0 has armed
// the turn again.
template <typename S, int kTurns>
struct ClusterExchange {
  static_assert(sizeof(S) % 8 == 0, "sums are stored 8 bytes at a time");
  static_assert(kTurns >= 2, "a turn comes round only after the row in between");
  S slots[kTurns][kMaxCluster];
  uint64_t ready[kTurns];

  // Every thread of the cluster calls this before the first exchange.
  __device__ __forceinline__ void init(int cluster) {
    if (threadIdx.x == 0) {
      copy_barrier_init(ready, kTurns);
      for (int t = 0; t < kTurns; ++t)
        copy_barrier_expect(&ready[t], static_cast<unsigned>(cluster * sizeof(S)));
    }
    cluster_sync();  // no block stores into a barrier its peer has not yet armed
  }

  // The combination of `value` (the same in every thread of the block) over the cluster's blocks, in
  // the order of their ranks, so that every block gets the same bits. Every thread calls this, with
  // its own `phases` (bit t: the parity of turn t's next phase; 0 at first).
  __device__ __forceinline__ S reduce(const S& value, int turn, int cluster, unsigned& phases) {
#ifdef ROW_NORM_CLUSTERS
    if (threadIdx.x < static_cast<unsigned>(cluster)) {
      const unsigned rank = threadIdx.x;
      const unsigned slot = cluster_address(&slots[turn][cluster_rank()], rank);
      const unsigned barrier = cluster_address(&ready[turn], rank);
      uint32_t words[sizeof(S) / 4];
      memcpy(words, &value, sizeof(S));
#pragma unroll
      for (int k = 0; k < static_cast<int>(sizeof(S) / 8); ++k) {
        asm volatile(
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%0], { %1, %2 }, [%3];\n" ::"r"(
                slot + 8 * k),
            "r"(words[2 * k]), "r"(words[2 * k + 1]), "r"(barrier)
            : "memory");
      }
    }
    copy_barrier_wait<true>(&ready[turn], (phases >> turn) & 1u);
    phases ^= 1u << turn;
    S total = slots[turn][0];
    for (int rank = 1; rank < cluster; ++rank) total = S::combine(total, slots[turn][rank]);
    // Armed for the turn's next row: its sums come only after every thread of this block has waited
    // for this phase (see above), so the phase that completes next is that row's.
    if (threadIdx.x == 0) copy_barrier_expect(&ready[turn], static_cast<unsigned>(cluster * sizeof(S)));
    return total;
#else
    return value;  // never launched with a cluster (see kernel_has_clusters)
#endif
  }
};

// The combination of `value` (the same in every thread of the block) over the cluster's blocks, in
// the order of their ranks as cluster_reduce's, so that every block gets the same bits, for the staged
// forward, which reduces once a row (or twice, a far row): threads below `cluster` store it into slot
// [this block's rank] of `slots` in each block (st.async, sm_90 on), whose bytes complete that block's
// `ready` (initialized for one arrival, thread 0's, which expects cluster * sizeof(S) bytes, before a
// cluster barrier that the caller passes before this); every thread waits for phase 0 of its own. A
// block reads no peer's shared memory, and its peers' stores into it are done once it has waited, so
// it may leave without the cluster barrier that cluster_reduce asks before a block leaves, as QuACK's
// forward does. Lab BO of the example's benchmarks/results/runs/bo/ (one H200, device time, outputs
// bitwise equal): the forward at 1024 x 65536 took 0.889 to 0.955 of the time with cluster_reduce and
// the barrier at the end in LayerNorm, RMSNorm and the residual-add LayerNorm (three dtypes), at 2048 x
// 32768 0.996 to 1.001 in the 16-bit types and 0.899 to 0.951 in float32.
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
      asm volatile(
          "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];\n" ::"r"(slot + 4 * k),
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

// Block r of each cluster of `cluster` blocks normalizes vectors [r slice, (r + 1) slice) of row
// blockIdx.x / cluster; its dynamic shared memory holds `slice` vectors of x (and as many of
// residual). The rows' vectors are 16 bytes (kVec x scalar_t) from each row's start.
template <template <typename> class Norm, typename scalar_t, typename param_t, int kVec>
__global__ void __launch_bounds__(kMaxRowThreads)
    forward_staged_kernel(const scalar_t* __restrict__ x, const scalar_t* __restrict__ residual,
                          const param_t* __restrict__ weight, const param_t* __restrict__ bias,
                          scalar_t* __restrict__ y, scalar_t* __restrict__ residual_out, int64_t cols,
                          int64_t slice, int cluster, at::opmath_type<scalar_t> eps) {
  using opmath_t = at::opmath_type<scalar_t>;
  using V = core::Vector<scalar_t, kVec>;
  static_assert(sizeof(V) == core::kMaxVectorBytes, "bulk copies of whole 16-byte vectors");
  constexpr bool kCentered = Norm<opmath_t>::kCentered;
  constexpr bool kBias = Norm<opmath_t>::kBias;
  constexpr bool kResidual = Norm<opmath_t>::kResidual;
  // The loops' unrolling: this many vectors a thread in flight from shared memory and, in the output
  // pass, of the parameters from global memory (L2, where every row reads them).
  constexpr int kUnroll = 4;
  using S = ForwardSums<opmath_t, kCentered>;
  __shared__ S smem[core::kWarp];
  // exchange_once's slots and barriers: turn 0 for the row's sums, turn 1 for a far row's.
  __shared__ S row_slots[2][kMaxCluster];
  __shared__ uint64_t row_ready[2];
  __shared__ uint64_t copied;
  // The staged rows start on a 128-byte boundary. Lab J2 (above): the sums' shared slots take less room
  // than Moments', and the dynamic shared memory, which starts after the static, then started 16 bytes
  // past a boundary in RMSNorm's staged forward (144 bytes of static; 32 past one with Moments' 416),
  // whose code was otherwise the same: it took 1.030 to 1.038 times as long as with Moments; aligned,
  // 0.969 to 0.982 of the time. Likely the start, then; it was not varied alone.
  extern __shared__ __align__(128) uint4 staged_words[];
  V* staged = reinterpret_cast<V*>(staged_words);
  [[maybe_unused]] V* staged_residual = staged + slice;
  const int64_t row = blockIdx.x / cluster;
  const int64_t first = static_cast<int64_t>(cluster_rank()) * slice;
  const int64_t count = std::max<int64_t>(0, std::min<int64_t>(slice, cols / kVec - first));
  const int64_t offset = row * cols + first * kVec;  // of the slice's first element
  if (threadIdx.x == 0) {
    copy_barrier_init(row_ready, 2);
    for (int turn = 0; turn < 2; ++turn)
      copy_barrier_expect(&row_ready[turn], static_cast<unsigned>(cluster * sizeof(S)));
    copy_barrier_init(&copied);
    const unsigned bytes = static_cast<unsigned>(count * sizeof(V));
    copy_barrier_expect(&copied, kResidual ? 2 * bytes : bytes);
    if (bytes > 0) {
      bulk_copy(staged, x + offset, bytes, &copied);
      if constexpr (kResidual) bulk_copy(staged_residual, residual + offset, bytes, &copied);
    }
  }
  cluster_arrive_relaxed();  // row_ready is initialized: the peers wait for it (cluster_wait) to store
  // (Read while the copies run.)
  const opmath_t origin = kCentered ? row_origin<kResidual>(x, residual, row * cols) : opmath_t(0);
  __syncthreads();  // the barrier is initialized
  copy_barrier_wait(&copied, 0);
  // The sums of the thread's vectors (ForwardSums). With the residual add, the sum x + residual,
  // rounded to x's dtype, is written to residual_out and kept in place of x.
  S sums{};
#pragma unroll kUnroll
  for (int64_t j = threadIdx.x; j < count; j += blockDim.x) {
    V v = staged[j];
    if constexpr (kResidual) {
      opmath_t a[kVec], b[kVec];
      core::load_opmath(v, a);
      core::load_opmath(staged_residual[j], b);
#pragma unroll
      for (int e = 0; e < kVec; ++e) a[e] += b[e];
      v = core::round_to<scalar_t, kVec>(a);
      staged[j] = v;
      reinterpret_cast<V*>(residual_out + offset)[j] = v;
    }
    opmath_t f[kVec];
    core::load_opmath_by_words(v, f);
    add_elements<kCentered>(sums, f, origin);
  }
  sums = row_reduce(sums, blockDim.x, smem);
  cluster_wait();  // every peer's row_ready is initialized
  sums = exchange_once(sums, row_slots[0], &row_ready[0], cluster);
  const opmath_t n = static_cast<opmath_t>(cols);
  RowStatistics<kCentered, opmath_t> stats(sums, n);
  opmath_t mean = kCentered ? origin + stats.d_mean : opmath_t(0);
  if constexpr (kCentered) {
    // A row far from its first element (kFarShift), summed again about the mean so found, from the
    // staged slices: every block of the cluster has the same sums, hence the same decision.
    if (stats.far()) {
      S again{};
#pragma unroll kUnroll
      for (int64_t j = threadIdx.x; j < count; j += blockDim.x) {
        opmath_t f[kVec];
        core::load_opmath_by_words(staged[j], f);
        add_elements<kCentered>(again, f, mean);
      }
      again = row_reduce(again, blockDim.x, smem);
      again = exchange_once(again, row_slots[1], &row_ready[1], cluster);
      const RowStatistics<kCentered, opmath_t> about_mean(again, n);
      mean += about_mean.d_mean;
      stats.variance = about_mean.variance;
    }
  }
  // No cluster barrier follows: a block has read only its own shared memory, into which its peers'
  // stores are done (exchange_once). Before lab BO, cluster_reduce read the peers' slots, and a block
  // then passed one more cluster barrier before it left (lab K of the example's benchmarks/results/runs/
  // had found it cheaper split around the output pass, but for LayerNorm's 16-bit rows).
  const opmath_t rstd = stats.rstd(eps);
  V* y_slice = reinterpret_cast<V*>(y + offset);
  const param_t* weight_slice = weight + first * kVec;
  [[maybe_unused]] const param_t* bias_slice = kBias ? bias + first * kVec : nullptr;
#pragma unroll kUnroll
  for (int64_t j = threadIdx.x; j < count; j += blockDim.x) {
    opmath_t f[kVec], w[kVec];
    [[maybe_unused]] opmath_t b[kVec];
    core::load_opmath_by_words(staged[j], f);
    load_parameter<0, true>(weight_slice, 0, j, w);
    if constexpr (kBias) load_parameter<0, true>(bias_slice, 0, j, b);
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      f[e] = (f[e] - mean) * rstd * weight_scale<Norm>(w[e]);
      if constexpr (kBias) f[e] += b[e];
    }
    y_slice[j] = core::round_to<scalar_t, kVec>(f);
  }
}

// ---------------------------------------------------------------------------------------------
// Backward
// ---------------------------------------------------------------------------------------------
// 16 bytes from global to shared memory, asynchronously where the GPU can (cp.async, sm_80 on),
// then the wait for all but the `kPending` latest groups of such copies of this thread.
__device__ __forceinline__ void copy_async_16(void* smem, const void* global) {
#ifdef ROW_NORM_CP_ASYNC
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(address), "l"(global) : "memory");
#else
  *reinterpret_cast<uint4*>(smem) = *reinterpret_cast<const uint4*>(global);
#endif
}

__device__ __forceinline__ void commit_async() {
#ifdef ROW_NORM_CP_ASYNC
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

template <int kPending>
__device__ __forceinline__ void wait_async() {
#ifdef ROW_NORM_CP_ASYNC
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}

// The shared memory a block of the backward stages its next rows in: kStages x tensors (x, grad_out
// and perhaps grad_residual_out) x the block's threads x kItems vectors of 16 bytes.
template <int kItems, int kStages>
constexpr size_t staging_bytes(int block_threads, int tensors) {
  static_assert(kStages >= 2, "a row is worked on in one stage while the next is copied into another");
  return static_cast<size_t>(kStages) * tensors * block_threads * kItems * core::kMaxVectorBytes;
}
// At one vector a thread, two tensors in two stages are within the 48 KiB that every CUDA GPU gives a
// block without asking (a third tensor, with a residual add, may not be).
static_assert(kMostStages<false, false, false, 1> == 2 &&
              staging_bytes<1, 2>(kMaxRowThreads, 2) <= 32 * 1024);

// The value LayerNorm's backward sums a row about (d = x - shift): the median of the row's first three
// elements (its first where N < 3). A row whose shift lies far from its mean (kFarShift) is summed
// again (far_row_sums), a second read of the row by one row group while the others wait at the end of
// the grid: one such row in the tensor added 9.7 to 31.1 us to LayerNorm's 16-bit forward+backward at
// 8192 x 8192, 4096 x 16384 and 1024 x 65536 (lab AD of the RMSNorm example's benchmarks/results/runs/,
// H200), and a first element four deviations out, which makes a row far, comes in about 1 row of
// 16,000 normally distributed ones, so that the benchmark's random inputs held one now and then. The
// median is far only where two of the three are (about 1 row in 10^8 such rows), and in rows whose
// first column alone holds an LLM's "massive activation", never. (The forward sums about row_origin,
// the row's first element; the CPU loops about the mean of its first vector: Row::shift_of in cpu.h.)
template <typename scalar_t>
__device__ __forceinline__ at::opmath_type<scalar_t> backward_shift(const scalar_t* __restrict__ x_row,
                                                                    int64_t cols) {
  using opmath_t = at::opmath_type<scalar_t>;
  const opmath_t a = static_cast<opmath_t>(x_row[0]);
  if (cols < 3) return a;
  const opmath_t b = static_cast<opmath_t>(x_row[1]), c = static_cast<opmath_t>(x_row[2]);
  return fmax(fmin(a, b), fmin(fmax(a, b), c));
}

// The sums of backward_kernel (sum(d), sum(d^2), sum(w dy), sum(d w dy), d = x - shift) of a row
// whose shift lies far from its mean (kFarShift), over the row_threads threads of its row
// group and, in a cluster, of each block (the caller combines the blocks'). Each thread reads its
// elements from global memory one at a time, which is simple and, for a rare row, cheap enough.
// (ptxas, nvcc 13.0, sm_90a, in the example's benchmarks/results/runs/g/: a second look at the
// kernel's own registers or staged rows spilled more in the 16-bit kernels, a call of a function
// not inlined took up to 102 registers a thread where the kernel had 64.) Every thread of the row
// group calls this.
template <template <typename> class Norm, typename scalar_t, typename param_t, typename S>
__device__ __forceinline__ S far_row_sums(const scalar_t* __restrict__ x_row,
                                          const scalar_t* __restrict__ dy_row,
                                          const param_t* __restrict__ weight, int64_t cols,
                                          at::opmath_type<scalar_t> shift, bool active, int row_threads,
                                          int cluster, S* smem) {
  using opmath_t = at::opmath_type<scalar_t>;
  S sums{};
  if (active) {
    const int64_t rank = cluster > 1 ? cluster_rank() : 0;
    const int64_t stride = static_cast<int64_t>(cluster) * row_threads;
    for (int64_t c = rank * row_threads + threadIdx.x % row_threads; c < cols; c += stride) {
      const opmath_t d = static_cast<opmath_t>(x_row[c]) - shift;
      const opmath_t wdy =
          weight_scale<Norm>(static_cast<opmath_t>(weight[c])) * static_cast<opmath_t>(dy_row[c]);
      sums.v[0] += d;
      sums.v[1] += d * d;
      sums.v[2] += wdy;
      sums.v[3] += d * wdy;
    }
  }
  return row_reduce(sums, row_threads, smem);
}

// The backward without a workspace (kKeep, where the host finds that it applies: the rows staged from
// each row's start, without a cluster, every row group at least kRowsPerKeptRow * kept_rows of them,
// and a cooperative launch, so that the whole grid is resident and can wait at grid barriers). Each
// row group keeps the grad_x of its last kept_rows rows back in their stages (x's slots, once read)
// and writes its float sums of the parameters' gradients where those rows go in grad_x; the grid then
// sums every group's sums in a fixed order, and each group writes its kept rows last. The backward
// then allocates only its outputs, where the workspace added a row of N floats (two with a bias) for
// every row group (lab AT6: peak memory at or below eager's where it applied). Labs AT to AT6 of the
// example's benchmarks/results/runs/ (H200; at/keep4.diff): the backward took 1.01 to 1.06 times as
// long at the large shapes, and 1.2 to 1.6 at 4096 x 1024 (one vector a thread, where it does not
// apply).
//
// Rows of grad_x that hold a row group's sums: N sums a parameter (RMSNorm: grad_weight's;
// LayerNorm: grad_bias's too) of sizeof(opmath_t) bytes, in rows of N * sizeof(scalar_t).
template <template <typename> class Norm, typename scalar_t>
constexpr int kept_rows() {
  return (Norm<float>::kBias ? 2 : 1) *
         static_cast<int>(sizeof(at::opmath_type<scalar_t>) / sizeof(scalar_t));
}

// Whether a build of the backward can go without its workspace: its rows staged (kStages) from each
// row's start, without a cluster, at several vectors a thread, with room in its stages for the kept
// rows. The kernel asserts it of its kKeep build; the host builds and tries kKeep only where it holds.
template <template <typename> class Norm, typename scalar_t, int kItems, int kStages, bool kShifted,
          bool kClustered>
constexpr bool keep_applies() {
  return kStages > 0 && !kShifted && !kClustered && kItems > 1 && kept_rows<Norm, scalar_t>() <= kStages;
}

// The rows row group g walks, of `groups` row groups each starting at its index and stepping by
// `groups`.
__host__ __device__ inline int64_t group_rows(int64_t g, int64_t rows, int64_t groups) {
  return rows / groups + (g < rows % groups ? 1 : 0);
}

// The end of kKeep's backward, after every row group has worked its rows: acc_w (acc_b) are the
// thread's sums of its columns of grad_weight (grad_bias); the group's last kept_rows rows of grad_x
// are in stage (index % kStages)'s x slots. 1. The thread writes its sums over those rows of grad_x:
// sum c of the params x N (grad_weight's, then grad_bias's) of group g lies in its kept row
// c / per_row at c % per_row (per_row = N sizeof(scalar_t) / sizeof(opmath_t)). 2. A grid barrier.
// 3. Block b adds up units [U b / B, U (b + 1) / B) of the U = params N / kChunk units of kChunk
// columns (16 bytes): `lanes` units side by side (a power of two up to the warp), `subsets` threads
// for each, a thread every subsets-th group in group order, kBatch loads issued together; the
// subsets' totals are then added by a fixed tree (shuffles within each warp, then the warps in order
// through stage 0's grad_out slots, which the rows no longer need): the same order on every run of
// the same grid. It reads through L2 (ld.global.cg), which other multiprocessors wrote, and writes
// grad_weight (grad_bias) rounded to param_t. 4. A grid barrier. 5. The group writes its kept rows.
// (Indices in integers, pointers formed only where they are read or written: none past grad_x.)
template <template <typename> class Norm, typename scalar_t, typename param_t, int kVec, int kItems,
          int kStages, typename AccW, typename AccB>
__device__ __forceinline__ void keep_sums_in_grad_x(
    const AccW& acc_w, const AccB& acc_b, scalar_t* __restrict__ grad_x, param_t* __restrict__ grad_weight,
    param_t* __restrict__ grad_bias, core::Vector<scalar_t, kVec>* staging, int staged_stride,
    int staged_slot, int staged_tensors, int row_threads, int64_t own_group, int64_t own_rows, int64_t rows,
    int64_t cols, int64_t groups) {
  using opmath_t = at::opmath_type<scalar_t>;
  using V = core::Vector<scalar_t, kVec>;
  constexpr bool kBias = Norm<opmath_t>::kBias;
  constexpr int kParams = kBias ? 2 : 1;
  constexpr int kKeepRows = kept_rows<Norm, scalar_t>();
  constexpr int kChunk = core::kMaxVectorBytes / static_cast<int>(sizeof(opmath_t));
  static_assert(kVec % kChunk == 0, "a vector's sums are whole 16-byte chunks");
  using C = core::Vector<opmath_t, kChunk>;
  const int t = static_cast<int>(threadIdx.x) % row_threads;
  const int64_t col_vecs = cols / kVec;
  const int64_t per_row =
      cols * static_cast<int64_t>(sizeof(scalar_t)) / static_cast<int64_t>(sizeof(opmath_t));
  opmath_t* const sums = reinterpret_cast<opmath_t*>(grad_x);
  // 1. This group's sums into its kept rows.
  const int64_t own_first_kept = own_group + (own_rows - kKeepRows) * groups;
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const int64_t j = static_cast<int64_t>(i) * row_threads + t;
    if (j >= col_vecs) continue;
#pragma unroll
    for (int e0 = 0; e0 < kVec; e0 += kChunk) {
      C w, b;
#pragma unroll
      for (int e = 0; e < kChunk; ++e) {
        w.v[e] = acc_w[i][e0 + e];
        if constexpr (kBias) b.v[e] = acc_b[i][e0 + e];
      }
      const auto put = [&](int64_t c, const C& value) {
        const int64_t k = c / per_row;
        *reinterpret_cast<C*>(sums + (own_first_kept + k * groups) * per_row + (c - k * per_row)) = value;
      };
      put(j * kVec + e0, w);
      if constexpr (kBias) put(cols + j * kVec + e0, b);
    }
  }
  cooperative_groups::this_grid().sync();
  // 3. This block's units, over every row group.
  {
    const int64_t units = kParams * cols / kChunk;
    const int64_t blocks = gridDim.x;
    const int64_t first_unit = units * blockIdx.x / blocks;
    const int n = static_cast<int>(units * (blockIdx.x + 1) / blocks - first_unit);
    const int threads = static_cast<int>(blockDim.x);
    int lanes = 1;
    while (lanes < n && lanes < core::kWarp) lanes *= 2;
    const int subsets = threads / lanes;
    const int lane = static_cast<int>(threadIdx.x) % lanes;
    const int subset = static_cast<int>(threadIdx.x) / lanes;
    const int warp = static_cast<int>(threadIdx.x) / core::kWarp;
    const int64_t fewest = rows / groups, longer = rows % groups;
    C* totals = reinterpret_cast<C*>(staging + staged_stride);  // stage 0's grad_out slots
    constexpr int kBatch = 4;                                   // loads issued together
    const auto load = [](const opmath_t* p) {
      C v;
      if constexpr (sizeof(opmath_t) == 4) {
        const float4 f = __ldcg(reinterpret_cast<const float4*>(p));
        v.v[0] = f.x, v.v[1] = f.y, v.v[2] = f.z, v.v[3] = f.w;
      } else {
        const double2 f = __ldcg(reinterpret_cast<const double2*>(p));
        v.v[0] = f.x, v.v[1] = f.y;
      }
      return v;
    };
    for (int q0 = 0; q0 < n; q0 += lanes) {
      const int q = q0 + lane;
      C total;
#pragma unroll
      for (int e = 0; e < kChunk; ++e) total.v[e] = 0;
      if (q < n) {
        const int64_t c = (first_unit + q) * kChunk;
        const int64_t k = c / per_row;
        // Group g's sum c: in row g + (rows of g - kKeepRows + k) groups, at c - k per_row; the groups
        // with the longer count of rows come first.
        const int64_t short_start = (fewest - kKeepRows + k) * groups * per_row + (c - k * per_row);
        const int64_t long_start = short_start + groups * per_row;
        const auto at = [&](int64_t g) {
          return sums + ((g < longer ? long_start : short_start) + g * per_row);
        };
        int64_t g = subset;
        for (; g + (kBatch - 1) * subsets < groups; g += kBatch * subsets) {
          C v[kBatch];
#pragma unroll
          for (int u = 0; u < kBatch; ++u) v[u] = load(at(g + u * subsets));
#pragma unroll
          for (int u = 0; u < kBatch; ++u) {
#pragma unroll
            for (int e = 0; e < kChunk; ++e) total.v[e] += v[u].v[e];
          }
        }
        for (; g < groups; g += subsets) {
          const C v = load(at(g));
#pragma unroll
          for (int e = 0; e < kChunk; ++e) total.v[e] += v.v[e];
        }
      }
      // Within the warp: subsets lanes apart, halving (a fixed tree).
      for (int offset = core::kWarp / 2; offset >= lanes; offset /= 2) {
#pragma unroll
        for (int e = 0; e < kChunk; ++e) total.v[e] += __shfl_down_sync(0xffffffffu, total.v[e], offset);
      }
      if (static_cast<int>(threadIdx.x) % core::kWarp < lanes) totals[warp * lanes + lane] = total;
      __syncthreads();
      if (warp == 0 && subset == 0 && q < n) {
        for (int w = 1; w < threads / core::kWarp; ++w) {
          const C v = totals[w * lanes + lane];
#pragma unroll
          for (int e = 0; e < kChunk; ++e) total.v[e] += v.v[e];
        }
        const int64_t c = (first_unit + q) * kChunk;
        param_t* out = c < cols ? grad_weight + c : grad_bias + (c - cols);  // a unit lies in one of them
#pragma unroll
        for (int e = 0; e < kChunk; ++e) out[e] = static_cast<param_t>(total.v[e]);
      }
      __syncthreads();  // the next units' totals go where these were
    }
  }
  cooperative_groups::this_grid().sync();
  // 5. The kept rows, over the sums.
  for (int k = 0; k < kKeepRows; ++k) {
    const int64_t index = own_rows - kKeepRows + k;
    const int s = static_cast<int>(index % kStages);
    V* dx_row = reinterpret_cast<V*>(grad_x + (own_group + index * groups) * cols);
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const int64_t j = static_cast<int64_t>(i) * row_threads + t;
      if (j < col_vecs)
        dx_row[j] = staging[s * staged_tensors * staged_stride + staged_slot + i * row_threads];
    }
  }
}

// grad_x = rstd * (w dy - mean(w dy) - x_hat * mean(x_hat * w dy)) (RMSNorm: without mean(w dy)),
// with w = weight (+ 1 for a zero-centred weight) and x_hat = (x - mean) * rstd.
//
// One read of the row gives the statistics and both means. LayerNorm's sums are taken about the
// median of the row's first three elements (shift, backward_shift): sum(d), sum(d^2), sum(w dy),
// sum(d w dy) with d = x - shift, so the variance sum(d^2)/N - (sum(d)/N)^2 does not lose the digits
// that a mean far from zero would; a row whose shift lies far from its mean is summed again about the
// mean (far_row_sums).
//
// partial: rows of float sums of grad_out * x_hat (then, with a bias, of grad_out), one per row
// group of the grid ([2][partial_rows][cols] with a bias). kInRegisters: the thread's columns of
// them are summed in registers and written once; else (one row group a block, rows wider than the
// registers hold) they are added in the workspace row by row. kClustered (kInRegisters only; cluster > 1
// blocks a cluster): the blocks of a cluster walk the same rows, block r owning the r-th slice of kItems
// x row_threads vectors of every row, the row's sums exchanged over the cluster (ClusterExchange). A
// kernel of its own, so that the others carry none of the exchange's code and shared memory.
//
// kStages > 0 (kInRegisters with 16-byte vectors, where the GPU gives a block staging_bytes of shared
// memory): while a row is worked on, the block's next kStages - 1 rows are copied into shared memory
// (each thread copies, and later reads, only its own columns, so a thread's wait for its copies
// suffices), so that a block keeps reads in flight through the row's reductions and arithmetic, which
// a block that reads each row when it gets to it does not.
//
// kShifted: see head_elements. With kInRegisters, where row groups walk several rows, the host makes
// the grid's rows a multiple of kVec / gcd(kVec, N), so that every row a row group walks starts
// equally far from a vector boundary and the thread's columns stay the same from row to row; the
// thread's edge column's sums are kept in registers too.
//
// inv_n: 1 / N in the math type, computed on the host (IEEE division: the value the device would
// compute). A row's means are its sums times it (within an ulp of sum / N, the same where N is a power
// of two): a multiplication where each division took a reciprocal and its correction. An argument, it
// is read from the constant bank; computed in the kernel, it held a register, and 16-bit kernels at 128
// registers a thread spilled more (nvcc 13.0, sm_90a).
template <template <typename> class Norm, typename scalar_t, typename param_t, int kVec, int kItems,
          bool kInRegisters, int kStages, bool kShifted, bool kClustered, bool kKeep>
__global__ void __launch_bounds__(kMaxRowThreads)
    backward_kernel(const scalar_t* __restrict__ grad_out, const scalar_t* __restrict__ grad_residual_out,
                    const scalar_t* __restrict__ x, const param_t* __restrict__ weight,
                    scalar_t* __restrict__ grad_x, at::opmath_type<scalar_t>* __restrict__ partial,
                    param_t* __restrict__ grad_weight, param_t* __restrict__ grad_bias, int64_t rows,
                    int64_t cols, int row_threads, int passes, int cluster, int staged_tensors,
                    at::opmath_type<scalar_t> eps, at::opmath_type<scalar_t> inv_n) {
  using opmath_t = at::opmath_type<scalar_t>;
  using V = core::Vector<scalar_t, kVec>;
  constexpr bool kCentered = Norm<opmath_t>::kCentered;
  constexpr bool kBias = Norm<opmath_t>::kBias;
  // kStages: the stages of the staging, 0 where the rows are not staged.
  constexpr bool kStaged = kStages > 0;
  static_assert(!kStaged || (kInRegisters && sizeof(V) == core::kMaxVectorBytes), "staging copies 16 bytes");
  // kKeep: no workspace (`partial` is null); see kept_rows and keep_sums_in_grad_x.
  static_assert(!kKeep || keep_applies<Norm, scalar_t, kItems, kStages, kShifted, kClustered>(),
                "kept rows are staged rows of their own stages, from each row's start, without a cluster, at "
                "several vectors a thread");
  // The turns of the cluster's slots (below): one a stage, or two where the rows are not staged.
  constexpr int kTurns = kStaged ? kStages : 2;
  // With a residual add, grad_residual_out (where given: the same for every thread) adds to grad_x.
  const bool add_grad_residual = Norm<opmath_t>::kResidual && grad_residual_out != nullptr;
  // staged_tensors (kStaged): 3 where grad_residual_out is staged too (the host gives it only then);
  // without a residual add, always 2, known at compile time.
  if constexpr (!Norm<opmath_t>::kResidual) staged_tensors = 2;
  const bool staged_grad_residual = kStaged && Norm<opmath_t>::kResidual && staged_tensors > 2;
  // RMSNorm: sum(x^2), sum(x w dy). LayerNorm: sum(d), sum(d^2), sum(w dy), sum(d w dy).
  using S = Sums<opmath_t, kCentered ? 4 : 2>;
  __shared__ S smem[core::kWarp];
  static_assert(!kClustered || kInRegisters, "the blocks of a cluster keep their sums in registers");
  // The row's sums for the other blocks of the cluster, a turn for each stage.
  __shared__ ClusterExchange<S, kTurns> exchange;
  unsigned exchange_phases = 0;
  if constexpr (kClustered) exchange.init(cluster);
  extern __shared__ __align__(core::kMaxVectorBytes) unsigned char staging[];
  // kStagedShift: LayerNorm's staged 16-bit rows in clusters take the shift (backward_shift) from a
  // copy of the row's first 16 bytes that each warp's first lane stages with the row, rather than
  // from three loads of global memory at the row's start, whose latency every thread of the row then
  // waited for (runs/bk/, lab BK: the backward up to 4.5% faster at 1024 x 65536, its gradients the
  // same bit for bit; the residual-add LayerNorm's 2.3% slower in bfloat16 at 2048 x 32768). A block
  // of a cluster holds one row (launch_rows), so each warp's copy is of its own row; a 16-byte slot
  // holds the shift's three 16-bit elements.
  constexpr bool kStagedShift = kCentered && kClustered && kStaged && !kShifted && sizeof(scalar_t) == 2;
  constexpr int kShiftSlots = kStagedShift ? kMaxRowThreads / core::kWarp : 1;
  __shared__ __align__(core::kMaxVectorBytes) V row_heads[kStagedShift ? kStages : 1][kShiftSlots];
  const int rows_per_block = blockDim.x / row_threads;
  const int group = threadIdx.x / row_threads;
  const int t = threadIdx.x % row_threads;
  // (cluster > 1 rather than kClustered, which is the same, but with which ptxas, nvcc 13.0, spilled
  // more in the two-stage 16-bit LayerNorm kernels of unshifted rows that the benchmark's 16-bit
  // shapes take: bfloat16 48 bytes of loads a thread rather than 16; runs/b/ptxas_backward_kernels.txt.)
  const int64_t block_index = cluster > 1 ? blockIdx.x / cluster : blockIdx.x;
  const int64_t blocks = cluster > 1 ? gridDim.x / cluster : gridDim.x;
  const int64_t partial_rows = blocks * rows_per_block;
  const int64_t first = cluster > 1 ? static_cast<int64_t>(cluster_rank()) * kItems * row_threads : 0;
  // (No pointer into a workspace that kKeep does not have.)
  opmath_t* partial_weight = kKeep ? nullptr : partial + (block_index * rows_per_block + group) * cols;
  opmath_t* partial_bias = kKeep || !kBias ? nullptr : partial_weight + partial_rows * cols;
  opmath_t acc_w[kInRegisters ? kItems : 1][kVec] = {};
  opmath_t acc_b[kInRegisters && kBias ? kItems : 1][kVec] = {};
  opmath_t edge_w = 0, edge_b = 0;  // the sums of this thread's edge column (kShifted, kInRegisters)
  if (kInRegisters) passes = 1;
  // Where row r's vectors start, and how many whole vectors it has (kShifted: see head_elements).
  const auto head_of = [&](int64_t r) { return kShifted ? head_elements<scalar_t, kVec>(x + r * cols) : 0; };
  const auto col_vecs_of = [&](int head) { return (cols - head) / kVec; };
  const auto column = [&](int pass, int i) {
    return first + (static_cast<int64_t>(pass) * kItems + i) * row_threads + t;
  };
  // The weight of the thread's columns, read once where the kernel holds it (see kHeldWeightBytes): a
  // staged kernel keeps its sums in registers (kInRegisters), so every row a thread works on has the
  // same columns (shifted rows too: see kShifted above, and backward_groups).
  using P = core::Vector<param_t, kVec>;
  constexpr bool kHeldWeight = kStaged && kItems * sizeof(P) <= kHeldWeightBytes;
  P held_w[kHeldWeight ? kItems : 1];
  if constexpr (kHeldWeight) {
    const int head = head_of(block_index * rows_per_block + group);
    const int64_t col_vecs = col_vecs_of(head);
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if (column(0, i) < col_vecs)
        held_w[i] = load_parameter_vector<P, kShifted, false>(weight, head, column(0, i));
    }
  }
  // The weight of column vector j (the thread's vector i), as opmath_t.
  const auto weight_at = [&](int i, int head, int64_t j, opmath_t(&w)[kVec]) {
    if constexpr (kHeldWeight) {
      forget(held_w[i]);
      core::load_opmath_by_words(held_w[i], w);
    } else {
      // Read where used (see load_parameter): in shifted rows in 4-byte words, as each address allows.
      // (ptxas, nvcc 13.0, sm_90a: up to 16 bytes took the float32 kernel from 78 to 105 registers a
      // thread; a build for each chunk of a row group's rows, which in registers all start alike, made
      // the staged 16-bit LayerNorm kernels spill 116 to 212 bytes a thread (before: at most 4). The
      // example's benchmarks/results/runs/o/ptxas_*.txt and runs/s/ptxas_chunk_per_group.txt.)
      constexpr int kChunk = kShifted ? -1 : 0;
      load_parameter<kChunk, false>(weight, head, j, w);
    }
  };
  // This thread's staged vector i of tensor (0: x, 1: grad_out, 2: grad_residual_out) in stage s.
  // (In 32-bit arithmetic, the thread's own part computed once: a block's shared memory holds far fewer
  // than 2^31 vectors, and 64-bit indices cost a row's copies and reads more instructions.)
  const int staged_slot = group * row_threads * kItems + t;
  const int staged_stride = static_cast<int>(blockDim.x) * kItems;  // vectors a tensor of a stage
  const auto staged = [&](int s, int tensor, int i) {
    return reinterpret_cast<V*>(staging) +
           ((s * staged_tensors + tensor) * staged_stride + staged_slot + i * row_threads);
  };
  // Starts the copies of the thread's columns of row r into stage s (none past the last row).
  const auto stage_row = [&](int64_t r, int s) {
    if constexpr (kStaged) {
      if (r < rows) {
        const int head = head_of(r);
        const int64_t col_vecs = col_vecs_of(head);
        const V* x_row = reinterpret_cast<const V*>(x + r * cols + head);
        const V* dy_row = reinterpret_cast<const V*>(grad_out + r * cols + head);
        const V* gr_row =
            reinterpret_cast<const V*>(staged_grad_residual ? grad_residual_out + r * cols + head : nullptr);
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          const int64_t j = column(0, i);
          if (j >= col_vecs) continue;
          copy_async_16(staged(s, 0, i), x_row + j);
          copy_async_16(staged(s, 1, i), dy_row + j);
          if (staged_grad_residual) copy_async_16(staged(s, 2, i), gr_row + j);
        }
        if constexpr (kStagedShift) {
          const bool first_lane = threadIdx.x % core::kWarp == 0;
          if (first_lane) copy_async_16(&row_heads[s][threadIdx.x / core::kWarp], x + r * cols);
        }
      }
      commit_async();  // a group each row, empty or not, so the waits below count rows
    }
  };
  [[maybe_unused]] bool first_row = true;
  int stage = 0;
  // kKeep: this row group's rows, and the index among them of the row being worked on; its last
  // kKeepRows rows of grad_x stay in their stages until the grid has summed the parameters' gradients.
  constexpr int kKeepRows = kKeep ? kept_rows<Norm, scalar_t>() : 0;
  const int64_t own_group = block_index * rows_per_block + group;
  const int64_t own_rows = kKeep ? group_rows(own_group, rows, partial_rows) : 0;
  [[maybe_unused]] int64_t row_index = 0;
  for (int s = 0; s < kTurns - 1; ++s) stage_row(block_index * rows_per_block + group + s * partial_rows, s);

  for (int64_t base = block_index * rows_per_block; base < rows; base += partial_rows) {
    const int64_t row = base + group;
    const bool active = row < rows;
    const int64_t row_offset = (active ? row : 0) * cols;
    const int head = head_of(active ? row : 0);
    const int64_t col_vecs = col_vecs_of(head);
    const int edges = static_cast<int>(cols - col_vecs * kVec);
    const bool has_edge = kShifted && active && first == 0 && t < edges;  // this thread's edge of the row
    const int64_t edge = row_offset + edge_column(t, head, col_vecs, kVec);
    const V* x_row = reinterpret_cast<const V*>(x + row_offset + head);
    const V* dy_row = reinterpret_cast<const V*>(grad_out + row_offset + head);
    opmath_t shift = 0;  // see below
    if constexpr (kCentered && !kStagedShift) shift = active ? backward_shift(x + row_offset, cols) : 0;
    if constexpr (kStaged) {
      stage_row(row + (kStages - 1) * partial_rows, (stage + kStages - 1) % kStages);
      wait_async<kStages - 1>();  // this row's copies are done, the next rows' may still fly
    }
    if constexpr (kStagedShift) {
      // The first lane's copy, done (its wait above), is the warp's after __syncwarp. The first lane
      // copies into this slot again at the next row's stage_row, after the block barriers of this
      // row's sums (row_reduce; launch_rows asserts one row a block, over more than a warp), so after
      // every lane here has read it.
      __syncwarp();
      const V& row_head = row_heads[stage][threadIdx.x / core::kWarp];
      if (active) shift = backward_shift(reinterpret_cast<const scalar_t*>(&row_head), cols);
    }
    // This row's vector i of x and grad_out: from the stage, or read once into registers.
    V x_items[kInRegisters && !kStaged ? kItems : 1], dy_items[kInRegisters && !kStaged ? kItems : 1];
    const auto x_at = [&](int i, int64_t j) -> V {
      if constexpr (kStaged) {
        return *staged(stage, 0, i);
      } else if constexpr (kInRegisters) {
        forget(x_items[i]);
        return x_items[i];
      } else {
        return load_vector(x_row + j);
      }
    };
    const auto dy_at = [&](int i, int64_t j) -> V {
      if constexpr (kStaged) {
        return *staged(stage, 1, i);
      } else if constexpr (kInRegisters) {
        forget(dy_items[i]);
        return dy_items[i];
      } else {
        return load_vector(dy_row + j);
      }
    };
    // The row's sums, an element at a time.
    const auto add_terms = [&](S& sums, opmath_t f, opmath_t g, opmath_t w) {
      const opmath_t wdy = weight_scale<Norm>(w) * g;
      const opmath_t d = f - shift;
      if constexpr (kCentered) {
        sums.v[0] += d;
        sums.v[1] += d * d;
        sums.v[2] += wdy;
        sums.v[3] += d * wdy;
      } else {
        sums.v[0] += d * d;
        sums.v[1] += d * wdy;
      }
    };
    S sums{};
    for (int pass = 0; pass < passes; ++pass) {
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        const int64_t j = column(pass, i);
        if (!active || j >= col_vecs) continue;
        if constexpr (kInRegisters && !kStaged)
          x_items[i] = load_vector(x_row + j), dy_items[i] = load_vector(dy_row + j);
        opmath_t f[kVec], g[kVec], w[kVec];
        core::load_opmath_by_words(x_at(i, j), f);
        core::load_opmath_by_words(dy_at(i, j), g);
        weight_at(i, head, j, w);
#pragma unroll
        for (int e = 0; e < kVec; ++e) add_terms(sums, f[e], g[e], w[e]);
      }
    }
    if (has_edge) {
      add_terms(sums, static_cast<opmath_t>(x[edge]), static_cast<opmath_t>(grad_out[edge]),
                static_cast<opmath_t>(weight[edge - row_offset]));
    }
    sums = row_reduce(sums, row_threads, smem);
    if constexpr (kClustered) sums = exchange.reduce(sums, stage, cluster, exchange_phases);
    if constexpr (kCentered) {
      // A row whose shift lies far from its mean against its spread (see far_row_sums) is
      // summed again about the mean just found. A warp decides as one (its row groups shuffle
      // together); a row over several warps or a cluster's blocks has the same sums, hence the same
      // decision, in every thread.
      const opmath_t d_mean = sums.v[0] * inv_n;
      if (__any_sync(0xffffffffu, lies_far(d_mean, sums.v[1] * inv_n - d_mean * d_mean))) {
        shift += d_mean;
        sums = far_row_sums<Norm>(x + row_offset, grad_out + row_offset, weight, cols, shift, active,
                                  row_threads, cluster, smem);
        if constexpr (kClustered) {
          __shared__ S far_slot;  // a cluster barrier, not the exchange: the case is rare
          sums = cluster_reduce(sums, &far_slot, cluster);
          cluster_sync();  // no block rewrites its slot while a peer may still read it
        }
      }
    }
    opmath_t mean, rstd, c1, c2;  // grad_x = rstd * (w dy - c2 - x_hat * c1)
    if constexpr (kCentered) {
      const opmath_t d_mean = sums.v[0] * inv_n;
      const opmath_t spread = sums.v[1] * inv_n - d_mean * d_mean;
      const opmath_t variance = spread > opmath_t(0) ? spread : opmath_t(0);
      mean = shift + d_mean;
      rstd = opmath_t(1) / sqrt(variance + eps);
      c2 = sums.v[2] * inv_n;
      c1 = rstd * (sums.v[3] - d_mean * sums.v[2]) * inv_n;  // mean(x_hat * w dy)
    } else {
      mean = 0;
      rstd = opmath_t(1) / sqrt(sums.v[0] * inv_n + eps);
      c2 = 0;
      c1 = rstd * sums.v[1] * inv_n;
    }
    // kFusedOutput: the kernels of kStagedShift (LayerNorm's 16-bit rows in clusters, those of issue
    // 11's goal cells at 1024 x 65536) take grad_x as two fused multiply-adds, x_hat * k1 + (w dy *
    // rstd + k0), an instruction an element fewer (runs/bm/, call BM: with kStagedShift, forward and
    // backward there in 0.972 of the time before in bfloat16). Its error, about rstd * (|w dy| +
    // |c2| + |x_hat c1|) * 2^-24, is like the plain form's, but where the plain form's grad_x cancels
    // to exactly 0 this one keeps that error as a residue (rows of one element, whose exact grad_x is
    // 0, are never clustered). x_hat itself subtracts first: as x * rstd - mean * rstd (lab BK's C2),
    // it was not 0 where x is the row's mean (call BL: test_rows_of_one_large_element).
    constexpr bool kFusedOutput = kStagedShift;
    const opmath_t k1 = -rstd * c1, k0 = -rstd * c2;
    if (active) {
      V* dx_row = reinterpret_cast<V*>(grad_x + row_offset + head);
      const V* gr_row =
          reinterpret_cast<const V*>(add_grad_residual ? grad_residual_out + row_offset + head : nullptr);
      for (int pass = 0; pass < passes; ++pass) {
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
          const int64_t j = column(pass, i);
          if (j >= col_vecs) continue;
          opmath_t f[kVec], g[kVec], w[kVec];
          core::load_opmath_by_words(x_at(i, j), f);
          core::load_opmath_by_words(dy_at(i, j), g);
          weight_at(i, head, j, w);
          opmath_t out[kVec];
#pragma unroll
          for (int e = 0; e < kVec; ++e) {
            const opmath_t x_hat = (f[e] - mean) * rstd;
            out[e] = kFusedOutput ? fma(x_hat, k1, fma(weight_scale<Norm>(w[e]) * g[e], rstd, k0))
                                  : rstd * (weight_scale<Norm>(w[e]) * g[e] - c2 - x_hat * c1);
            if constexpr (kInRegisters) {
              acc_w[i][e] += g[e] * x_hat;
              if constexpr (kBias) acc_b[i][e] += g[e];
            } else {
              f[e] = g[e] * x_hat;  // this row's terms, added below
            }
          }
          if (add_grad_residual) {
            opmath_t gr[kVec];
            const V gr_vector = staged_grad_residual ? *staged(stage, 2, i) : load_vector(gr_row + j);
            core::load_opmath_by_words(gr_vector, gr);
#pragma unroll
            for (int e = 0; e < kVec; ++e) out[e] += gr[e];
          }
          if (kKeep && row_index >= own_rows - kKeepRows) {
            *staged(stage, 0, i) = core::round_to<scalar_t, kVec>(out);  // x's slot, read: kept
          } else {
            dx_row[j] = core::round_to<scalar_t, kVec>(out);
          }
          if constexpr (!kInRegisters) {
            opmath_t* pw = partial_weight + head + j * kVec;
            opmath_t* pb = kBias ? partial_bias + head + j * kVec : nullptr;  // (none formed from null)
            using W = core::Vector<opmath_t, kVec>;
            W sum_w = first_row ? W{} : load_columns<kShifted, W>(pw);
            W sum_b{};
            if constexpr (kBias) sum_b = first_row ? W{} : load_columns<kShifted, W>(pb);
#pragma unroll
            for (int e = 0; e < kVec; ++e) {
              sum_w.v[e] += f[e];
              if constexpr (kBias) sum_b.v[e] += g[e];
            }
            store_columns<kShifted>(pw, sum_w);
            if constexpr (kBias) store_columns<kShifted>(pb, sum_b);
          }
        }
      }
      if (has_edge) {
        const opmath_t f = static_cast<opmath_t>(x[edge]), g = static_cast<opmath_t>(grad_out[edge]);
        const opmath_t x_hat = (f - mean) * rstd;
        const int64_t c = edge - row_offset;
        opmath_t out = rstd * (weight_scale<Norm>(static_cast<opmath_t>(weight[c])) * g - c2 - x_hat * c1);
        if (add_grad_residual) out += static_cast<opmath_t>(grad_residual_out[edge]);
        grad_x[edge] = static_cast<scalar_t>(out);
        if constexpr (kInRegisters) {
          edge_w += g * x_hat;
          if constexpr (kBias) edge_b += g;
        } else {
          partial_weight[c] = (first_row ? opmath_t(0) : partial_weight[c]) + g * x_hat;
          if constexpr (kBias) partial_bias[c] = (first_row ? opmath_t(0) : partial_bias[c]) + g;
        }
      }
    }
    // In the workspace, the next row's head may differ, and a column pass to another thread: this
    // row's sums must be written first.
    if constexpr (kShifted && !kInRegisters) __syncthreads();
    first_row = false;
    if constexpr (kKeep) ++row_index;
    stage = (stage + 1) % kTurns;
  }
  // No block leaves while its own stores of sums may still be on their way to a peer's shared memory (no
  // peer writes into this block's after its last wait).
  if constexpr (kClustered) cluster_sync();

  if constexpr (kKeep) {
    keep_sums_in_grad_x<Norm, scalar_t, param_t, kVec, kItems, kStages>(
        acc_w, acc_b, grad_x, grad_weight, grad_bias, reinterpret_cast<V*>(staging), staged_stride,
        staged_slot, staged_tensors, row_threads, own_group, own_rows, rows, cols, partial_rows);
  } else if constexpr (kInRegisters) {
    // Every column of the row group's workspace row, whether the group had rows or not.
    const int head = head_of(block_index * rows_per_block + group);
    const int64_t col_vecs = col_vecs_of(head);
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const int64_t j = column(0, i);
      if (j >= col_vecs) continue;
      core::Vector<opmath_t, kVec> w, b;
#pragma unroll
      for (int e = 0; e < kVec; ++e) {
        w.v[e] = acc_w[i][e];
        if constexpr (kBias) b.v[e] = acc_b[i][e];
      }
      store_columns<kShifted>(partial_weight + head + j * kVec, w);
      if constexpr (kBias) store_columns<kShifted>(partial_bias + head + j * kVec, b);
    }
    if (kShifted && first == 0 && t < cols - col_vecs * kVec) {
      const int64_t c = edge_column(t, head, col_vecs, kVec);
      partial_weight[c] = edge_w;
      if constexpr (kBias) partial_bias[c] = edge_b;
    }
  }
}

// Each parameter's gradient (grad_weight, then grad_bias: blockIdx.y) = the sum of its `count` rows
// of `cols` columns in the workspace, in row order for each column (kRowsInFlight threads a column
// take every kRowsInFlight-th row, then their sums are added in a fixed order), rounded to the
// parameter's dtype. One launch for both parameters.
template <typename param_t, typename opmath_t, int kRowsInFlight>
__global__ void sum_rows_kernel(const opmath_t* __restrict__ workspace, param_t* __restrict__ grad_weight,
                                param_t* __restrict__ grad_bias, int64_t count, int64_t cols) {
  __shared__ opmath_t sums[kRowsInFlight][kSumColumns];
  const opmath_t* __restrict__ partial = workspace + blockIdx.y * count * cols;
  param_t* __restrict__ grad = blockIdx.y == 0 ? grad_weight : grad_bias;
  const int64_t c = static_cast<int64_t>(blockIdx.x) * kSumColumns + threadIdx.x;
  opmath_t total = 0;
  if (c < cols) {
#pragma unroll 8
    for (int64_t r = threadIdx.y; r < count; r += kRowsInFlight) total += partial[r * cols + c];
  }
  sums[threadIdx.y][threadIdx.x] = total;
  __syncthreads();
  if (threadIdx.y == 0 && c < cols) {
#pragma unroll
    for (int k = 1; k < kRowsInFlight; ++k) total += sums[k][threadIdx.x];
    grad[c] = static_cast<param_t>(total);
  }
}

// ---------------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------------
// How the kernels read the rows: in vectors of `vec` elements from each row's start, or from its
// first vector boundary (shifted, see head_elements), or one element at a time (vec 1).
struct Width {
  int vec;
  bool shifted;
};

// 16 bytes of x a vector where N and every pointer allow; else shifted where every tensor of the
// rows (`data`) starts equally far from a vector boundary and a row has at least 2 vec vectors (then
// every row geometry gives a row at least 2 vec threads, and the row's edges, fewer than 2 vec
// elements, take at most one a thread); else one element at a time.
template <typename scalar_t, typename param_t>
Width pick_vector_width(int64_t cols, std::initializer_list<const void*> data,
                        std::initializer_list<const void*> params) {
  const int vec = core::kMaxVectorBytes / static_cast<int>(sizeof(scalar_t));
  if (cols % vec == 0 && core::aligned_to<scalar_t>(vec, data) && core::aligned_to<param_t>(vec, params)) {
    return {vec, false};
  }
  const auto offset = [](const void* p) {
    return reinterpret_cast<std::uintptr_t>(p) % core::kMaxVectorBytes;
  };
  bool same_offset = true;
  for (const void* p : data)
    same_offset = same_offset && (p == nullptr || offset(p) == offset(*data.begin()));
  if (same_offset && cols >= 2 * static_cast<int64_t>(vec) * vec) return {vec, true};
  return {1, false};
}

// Calls f(integral_constant<kVec>, bool_constant<kShifted>) for the width picked: the widest vector
// of scalar_t, aligned or shifted, or one element.
template <typename scalar_t, typename F>
void dispatch_width(Width width, F&& f) {
  constexpr int kWidest = core::kMaxVectorBytes / static_cast<int>(sizeof(scalar_t));
  if (width.vec == kWidest && width.shifted) {
    f(std::integral_constant<int, kWidest>{}, std::true_type{});
  } else if (width.vec == kWidest) {
    f(std::integral_constant<int, kWidest>{}, std::false_type{});
  } else {
    f(std::integral_constant<int, 1>{}, std::false_type{});
  }
}

// Calls f(integral_constant<kItems>) for items in {1, 4, kMost} (and 2 where kTwo: kTwoItemRows, so
// that other builds hold no kernel of two vectors a thread), or for kMost with `cached` false where
// the row needs more (items 0).
template <int kMost, bool kTwo, typename F>
void dispatch_items(int items, F&& f) {
  if constexpr (kTwo) {
    if (items == 2) return f(std::integral_constant<int, 2>{}, std::true_type{});
  }
  if (items == 1) {
    f(std::integral_constant<int, 1>{}, std::true_type{});
  } else if (items == 4) {
    f(std::integral_constant<int, 4>{}, std::true_type{});
  } else if (items == kMost) {
    f(std::integral_constant<int, kMost>{}, std::true_type{});
  } else {
    f(std::integral_constant<int, kMost>{}, std::false_type{});
  }
}

// What one kernel's launches in clusters may be on each device (a static in the caller): whether it
// can be launched in clusters at all (kernel_has_clusters: 1 yes, -1 no, 0 not asked yet), and how
// many clusters of each size (2, 4 or 8 blocks) and block size (in warps) the device holds at once
// (max_active_clusters: the count + 1, 0 not asked yet).
constexpr int kClusterSizes = 3;
static_assert(kMaxCluster == 1 << kClusterSizes, "clusters of 2, 4 and 8 blocks");
constexpr int kBlockSizes = kMaxRowThreads / core::kWarp;
struct ClusterCache {
  core::OccupancyCache has_clusters{};
  std::array<core::OccupancyCache, kClusterSizes * kBlockSizes> resident{};
};

// True where `kernel` can be launched in clusters on the current device: the GPU has them (compute
// capability 9 or more, and the driver reports that it launches them: cudaDevAttrClusterLaunch) and
// the kernel's code was generated for sm_90 or newer (a build for older GPUs compiles the cluster
// steps out; run on a newer GPU, it must not be launched in clusters).
template <typename Kernel>
bool kernel_has_clusters(Kernel kernel, ClusterCache& cache) {
  constexpr int kFirstClusterArch = 90;  // compute capability x 10 of the first GPUs with clusters
  const int device = c10::cuda::current_device();
  int answer = cache.has_clusters[device].load(std::memory_order_relaxed);
  if (answer == 0) {
    cudaFuncAttributes attributes{};
    C10_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    const auto* properties = at::cuda::getCurrentDeviceProperties();
    int cluster_launch = 0;
    C10_CUDA_CHECK(cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, device));
    const bool yes = properties->major * 10 >= kFirstClusterArch && cluster_launch != 0 &&
                     attributes.ptxVersion >= kFirstClusterArch &&
                     attributes.binaryVersion >= kFirstClusterArch;
    answer = yes ? 1 : -1;
    cache.has_clusters[device].store(answer, std::memory_order_relaxed);
  }
  return answer > 0;
}

// A launch of `blocks` blocks of `threads` threads and `smem` bytes with one launch attribute, which
// lives in `attribute` (which must outlive the configuration's use).
inline cudaLaunchConfig_t launch_config(cudaLaunchAttribute& attribute, int64_t blocks, int threads,
                                        size_t smem, cudaStream_t stream) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(blocks));
  config.blockDim = dim3(static_cast<unsigned>(threads));
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

// launch_config's in clusters of `cluster` blocks.
inline cudaLaunchConfig_t cluster_config(cudaLaunchAttribute& attribute, int64_t blocks, int threads,
                                         size_t smem, cudaStream_t stream, int cluster) {
  attribute = cudaLaunchAttribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = static_cast<unsigned>(cluster);
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  return launch_config(attribute, blocks, threads, smem, stream);
}

// Launches kernel<<<blocks, threads, smem, stream>>>(args...) as a cooperative launch (the whole grid
// resident at once, so that its grid barriers wait on no block that is not placed): false, with
// nothing launched and no error left, where the device refuses it (no cooperative launches, or too
// large a grid for what it holds now, as beside a process under MPS); other errors throw.
template <typename... Params, typename... Args>
bool launch_cooperative(void (*kernel)(Params...), int64_t blocks, int threads, size_t smem,
                        cudaStream_t stream, Args... args) {
  // Whether the device takes cooperative launches, asked once a device (0: not asked yet, 1: no, 2: yes).
  static core::OccupancyCache takes_cooperative{};
  const int device = c10::cuda::current_device();
  int answer = takes_cooperative[device].load(std::memory_order_relaxed);
  if (answer == 0) {
    int cooperative = 0;
    C10_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
    answer = cooperative != 0 ? 2 : 1;
    takes_cooperative[device].store(answer, std::memory_order_relaxed);
  }
  if (answer == 1) return false;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeCooperative;
  attribute.val.cooperative = 1;
  const cudaLaunchConfig_t config = launch_config(attribute, blocks, threads, smem, stream);
  const cudaError_t error = cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...);
  if (error == cudaErrorCooperativeLaunchTooLarge || error == cudaErrorNotSupported) {
    (void)cudaGetLastError();  // the refusal, cleared: the caller takes the workspace instead
    return false;
  }
  C10_CUDA_CHECK(error);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return true;
}

// Launches kernel<<<blocks, threads, smem, stream>>>(args...), in clusters of `cluster` blocks
// where cluster > 1, and checks the launch.
template <typename... Params, typename... Args>
void launch(void (*kernel)(Params...), int64_t blocks, int threads, size_t smem, cudaStream_t stream,
            int cluster, Args... args) {
  if (cluster > 1) {
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = cluster_config(attribute, blocks, threads, smem, stream, cluster);
    C10_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...));
  } else {
    kernel<<<static_cast<unsigned>(blocks), threads, smem, stream>>>(static_cast<Params>(args)...);
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

// Environment variables for the tests (families/row_norm.py names them for Python), read at each
// call: caps on the shared memory a block may take, in bytes (to test, on a GPU with more, the path
// that GPUs with less take; read where a block could stage its rows: the backward's, and the
// forward's of rows split over a cluster), on the backward's row groups (so that each walks many
// rows, as on a smaller GPU or with many more rows), and on the blocks of a cluster the device
// places (as where a GPU or a MIG slice has fewer multiprocessors in a GPC than a cluster needs;
// read where a row would be split over a cluster).
constexpr const char* kSharedMemoryLimitVariable = "ROW_NORM_SHARED_MEMORY_LIMIT";
constexpr const char* kBackwardGroupsVariable = "ROW_NORM_BACKWARD_GROUPS";
constexpr const char* kClusterLimitVariable = "ROW_NORM_CLUSTER_LIMIT";
// A test setting too: 1 keeps the backward's workspace where it could go without (kKeep), so that the
// tests can compare the two on one GPU; 0 or unset, it goes without where it can.
constexpr const char* kWorkspaceVariable = "ROW_NORM_WORKSPACE";

// Whether the backward may go without its workspace, as kWorkspaceVariable says (0 or 1 only).
inline bool workspace_free_allowed() {
  const char* text = std::getenv(kWorkspaceVariable);
  if (text == nullptr) return true;
  const std::string value(text);
  TORCH_CHECK(value == "0" || value == "1", kWorkspaceVariable, " must be 0 or 1, not '", value, "'");
  return value == "0";
}

// The number `variable` holds (digits only, at least `least`; a cap above `otherwise`, the most
// there is, caps nothing: `otherwise` then), or `otherwise` where it is not set.
inline uint64_t environment_cap(const char* variable, const char* unit, uint64_t least, uint64_t otherwise) {
  const char* text = std::getenv(variable);
  if (text == nullptr) return otherwise;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);  // ULLONG_MAX past its range
  TORCH_CHECK(text[0] >= '0' && text[0] <= '9' && *end == '\0' && value >= least, variable,
              " must be a number of ", unit, (least > 0 ? " (at least " + std::to_string(least) + ")" : ""),
              ", not '", text, "'");
  return std::min<uint64_t>(value, otherwise);
}

// Clusters of `cluster` blocks (2 to kMaxCluster) of `threads` threads (whole warps, up to
// kMaxRowThreads) and `smem` bytes of dynamic shared memory (which the kernel must be allowed) that
// the device holds at once, as the occupancy calculator reports it: 0 where it cannot place one (as
// where its GPCs, or a MIG slice's share of them, have too few multiprocessors for such a cluster),
// or where kClusterLimitVariable allows fewer blocks; the caller must then not launch such a
// cluster. The count is cached for each cluster and block size: `smem` must follow from the kernel
// and those (the staged forward asks for the most its blocks of that size take). The limit is
// applied to the cached count, so that the tests that set it run the query and the cache too.
template <typename Kernel>
int max_active_clusters(Kernel kernel, int threads, size_t smem, int cluster, ClusterCache& cache) {
  TORCH_INTERNAL_ASSERT(threads % core::kWarp == 0 && threads <= kMaxRowThreads && cluster <= kMaxCluster,
                        "clusters of up to kMaxCluster blocks of whole warps");
  int size_index = 0;  // clusters of 2, 4, 8: 0, 1, 2
  while ((2 << size_index) < cluster) ++size_index;
  std::atomic<int>& cached =
      cache.resident[size_index * kBlockSizes + threads / core::kWarp - 1][c10::cuda::current_device()];
  int clusters = cached.load(std::memory_order_relaxed) - 1;
  if (clusters < 0) {
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = cluster_config(attribute, cluster, threads, smem, nullptr, cluster);
    C10_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
    cached.store(clusters + 1, std::memory_order_relaxed);
  }
  const auto limit = static_cast<int>(environment_cap(kClusterLimitVariable, "blocks", 1, kMaxCluster));
  return cluster > limit ? 0 : clusters;
}

// How a row is laid over the threads: `cluster` blocks a row, each a slice of it (1: the whole row),
// the threads of a slice and rows of a block (geometry), and `passes` over a slice (1 where it is
// held in registers). resident: where cluster > 1, the clusters of dispatch_rows' `cluster_kernel`
// the device holds at once (at least 1), else 0.
struct RowLayout {
  RowGeometry geometry;
  int cluster;
  int passes;
  int resident;
};

// Calls f(integral_constant<kItems>, bool_constant<kWhole>, RowLayout) for rows of `cols` elements
// read `width` at a time, at `items` vectors a thread as pick_items or pick_forward_items gave them;
// where a row needs more than one block's registers hold (items 0), at kMost vectors a thread on a
// cluster of blocks where one of up to kMaxCluster suffices (pick_cluster: on kClusterThreads
// threads a block, else on kMaxRowThreads) and the device can launch and place clusters of
// `cluster_kernel` (without dynamic shared memory) so, else in several passes (kWhole false). A GPU
// that cannot place the first such cluster may place the second (fewer, larger blocks; the test of
// ROW_NORM_CLUSTER_LIMIT checks both). cluster_cache: `cluster_kernel`'s. kTwo: see dispatch_items.
template <int kMost, int kClusterThreads, bool kTwo, typename Kernel, typename F>
void dispatch_rows(int64_t cols, Width width, int items, Kernel cluster_kernel, ClusterCache& cluster_cache,
                   F&& f) {
  const int64_t col_vecs = cols / width.vec;  // (shifted rows have this many or one fewer)
  int cluster = 1, resident = 0;
  if (items == 0 && kernel_has_clusters(cluster_kernel, cluster_cache)) {
    constexpr int kTries = kClusterThreads == kMaxRowThreads ? 1 : 2;
    constexpr int kThreads[2] = {kClusterThreads, kMaxRowThreads};
    for (int t = 0; t < kTries && cluster == 1; ++t) {
      const int split = pick_cluster(col_vecs, kMost, kThreads[t]);
      if (split == 1) continue;
      const int threads = make_row_geometry((col_vecs + split - 1) / split, kMost).block_threads();
      const int placed = max_active_clusters(cluster_kernel, threads, 0, split, cluster_cache);
      if (placed > 0) {
        cluster = split;
        resident = placed;
        items = kMost;
      }
    }
  }
  dispatch_items<kMost, kTwo>(items, [&](auto items_c, auto whole_c) {
    constexpr int kItems = decltype(items_c)::value;
    const int64_t slice = (col_vecs + cluster - 1) / cluster;
    const RowGeometry g = make_row_geometry(slice, kItems);
    const int64_t per_pass = static_cast<int64_t>(kItems) * g.row_threads;
    TORCH_INTERNAL_ASSERT(!width.shifted || g.row_threads >= 2 * width.vec,
                          "a row's edges need a thread each");
    f(items_c, whole_c, RowLayout{g, cluster, static_cast<int>((slice + per_pass - 1) / per_pass), resident});
  });
}

// The backward's grid, in row groups (blocks, or clusters, of rows_per_block rows each): as many as the
// device holds at once, or kStagedRowElementsPerSM allows (`resident`), at most kMaxBlocksPerSM a
// multiprocessor, no more than the rows fill and ROW_NORM_BACKWARD_GROUPS allows, but for the rounding
// below. shifted_vec: the vector width of
// shifted rows held in registers, else 1; where such row groups walk several rows, the grid's rows are a
// multiple of kVec / gcd(kVec, N), so that each group's rows start equally far from a vector boundary (groups
// without rows write zeros): rounded down, or up to that multiple where the limits above leave fewer groups.
inline int64_t backward_groups(int64_t resident, int64_t rows, int64_t cols, int rows_per_block,
                               int shifted_vec) {
  const int64_t most = static_cast<int64_t>(kMaxBlocksPerSM) * core::multiprocessor_count();
  const int64_t cap = static_cast<int64_t>(environment_cap(kBackwardGroupsVariable, "row groups", 1, most));
  int64_t groups = std::min({resident, most, cap, (rows + rows_per_block - 1) / rows_per_block});
  const int64_t need = shifted_vec / std::gcd<int64_t>(shifted_vec, cols);  // rows apart that start alike
  if (rows > groups * rows_per_block && need > 1) {
    const int64_t multiple = need / std::gcd<int64_t>(need, rows_per_block);
    groups = std::max<int64_t>(1, groups / multiple) * multiple;
  }
  return groups;
}

// Blocks a multiprocessor for the staged backward of kStagedRowElementsPerSM's case: the fewest of the
// `held` the multiprocessor holds whose rows (row_elements each) come to kStagedRowElementsPerSM.
inline int64_t backward_blocks_per_sm(int64_t held, int64_t row_elements) {
  return std::min(held, (kStagedRowElementsPerSM + row_elements - 1) / row_elements);  // at least 1
}

// grad_weight (and grad_bias where params is 2) = the sums of the `count` rows of `workspace` (float,
// [params][count][cols]), in one launch for both. (A pointer, not views of the workspace: each view
// or select is a call through the dispatcher, host time that a backward of few rows, whose time the
// host sets, would spend. One launch rather than one for each parameter is one launch less of host
// time, not measured on its own.)
template <typename param_t, typename opmath_t>
void sum_rows(const opmath_t* workspace, int64_t params, at::Tensor& grad_weight, at::Tensor& grad_bias,
              int64_t count, int64_t cols, cudaStream_t stream) {
  TORCH_INTERNAL_ASSERT(grad_bias.defined() == (params == 2), "a workspace row for each parameter");
  const auto run = [&](auto rows_in_flight_c) {
    constexpr int kRowsInFlight = decltype(rows_in_flight_c)::value;
    const dim3 blocks(static_cast<unsigned>((cols + kSumColumns - 1) / kSumColumns),
                      static_cast<unsigned>(params));
    sum_rows_kernel<param_t, opmath_t, kRowsInFlight>
        <<<blocks, dim3(kSumColumns, kRowsInFlight), 0, stream>>>(
            workspace, grad_weight.mutable_data_ptr<param_t>(),
            grad_bias.defined() ? grad_bias.mutable_data_ptr<param_t>() : nullptr, count, cols);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  };
  if (count >= kManySumRows) {
    run(std::integral_constant<int, kManySumRowsInFlight>{});
  } else {
    run(std::integral_constant<int, kSumRowsInFlight>{});
  }
}

// Whether a block of `kernel` may take `bytes` of dynamic shared memory on the current device, beside
// its static shared memory: up to the device's opt-in limit (227 KiB a block on sm_90 and sm_100, 99
// KiB on sm_86, sm_89 and sm_120), or to kSharedMemoryLimitVariable's bytes where fewer. cache: the
// kernel's static shared memory + 1, one per device (a static in the caller).
template <typename Kernel>
bool dynamic_shared_memory_fits(Kernel kernel, size_t bytes, std::atomic<int>* cache) {
  const int device = c10::cuda::current_device();
  int static_bytes = cache[device].load(std::memory_order_relaxed) - 1;
  if (static_bytes < 0) {
    cudaFuncAttributes attributes{};
    C10_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    static_bytes = static_cast<int>(attributes.sharedSizeBytes);
    cache[device].store(static_bytes + 1, std::memory_order_relaxed);
  }
  const size_t optin = at::cuda::getCurrentDeviceProperties()->sharedMemPerBlockOptin;
  const size_t limit = environment_cap(kSharedMemoryLimitVariable, "bytes", 0, optin);  // at most optin
  return static_cast<size_t>(static_bytes) + bytes <= limit;
}

// Lets blocks of `kernel` take `bytes` of dynamic shared memory on the current device, where no
// earlier call allowed as much. cache: the bytes allowed, one per device (a static in the caller),
// raised under a lock so that it never says more than the attribute holds. (Asked at each call,
// cudaFuncSetAttribute took 1.8 us of the host's time a backward under the profiler: lab H1 of the
// example's benchmarks/results/runs/.)
template <typename Kernel>
void allow_dynamic_shared_memory(Kernel kernel, size_t bytes, std::atomic<int>* cache) {
  const int device = c10::cuda::current_device();
  if (static_cast<size_t>(cache[device].load(std::memory_order_acquire)) >= bytes) return;
  static std::mutex mutex;
  const std::lock_guard<std::mutex> lock(mutex);
  if (static_cast<size_t>(cache[device].load(std::memory_order_relaxed)) >= bytes) return;
  C10_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  cache[device].store(static_cast<int>(bytes), std::memory_order_release);
}

// forward_staged_kernel's geometry. Cluster: the fewest blocks (2, 4 or 8) whose slices take at most
// 1.5 x kStagedSliceBytes of shared memory a block; else 8 where their slices take at most 2 x
// kStagedSliceBytes; else none (forward_rows then takes the rows). (Lab Z1: a bound of sqrt(2) x
// kStagedSliceBytes, which takes the slice nearer to it by ratio, was slower: LayerNorm's bfloat16
// forward at 1024 x 98304 152.2 us against 136.8.) Threads: one for every kStagedThreadBytes of the block's
// slices, in whole warps, from kStagedLeastThreads to kMaxRowThreads. A multiprocessor holds up to six blocks
// of 32 KiB (as its registers allow), whose threads read and write their slices while the others'
// copies run, or three of 64 KiB. Lab Y1 of the example's benchmarks/results/runs/ (H200, device time), at
// 256 threads a block: the bfloat16 RMSNorm forward at 1024 x 65536 (a cluster of four) took 80.5 us against
// forward_rows' 105.9, on 512 threads 96.0, on 128 100.3, in slices of 16 KiB (eight blocks) 88.7, of 64 KiB
// (two) 104.0; the float32 LayerNorm's at 2048 x 32768 162.0 against 180.2, on 512 threads 223.6, on 128
// 211.5, in slices of 16 KiB 227.1. In slices of 64 KiB: the float32 RMSNorm at 512 x 131072 on 512 threads
// 170.6 us, on 256 214.8, forward_rows 191.2; in slices of 128 KiB (the residual-add RMSNorm in float32 at
// 512 x 131072, one block a multiprocessor) 496.0 us against forward_rows' 372.2. Lab Z1: the LayerNorm
// float32 forward at 1024 x 65600 (eight blocks of 32800 bytes) took 188.5 us on 288 threads against 247.1 on
// 512; the float32 RMSNorm's at 1024 x 98304 (slices of 48 KiB) 250.2 on 384 against 235.3 on 512.
constexpr int64_t kStagedSliceBytes = 32 * 1024;
constexpr int64_t kStagedThreadBytes = 8 * core::kMaxVectorBytes;
constexpr int kStagedLeastThreads = 256;
// The most a block's slices take (2 x kStagedSliceBytes) its most threads cover, so that a block
// takes no more than its threads' kStagedThreadBytes (launch_forward_staged asks the occupancy
// calculator for that).
static_assert(kMaxRowThreads * kStagedThreadBytes >= 2 * kStagedSliceBytes, "a thread per 128 bytes");

// forward_staged_kernel's blocks a cluster and threads a block for slices of `bytes_of(cluster)`
// bytes (above), or {0, 0} where none takes them.
template <typename BytesOf>
std::pair<int, int> staged_geometry(BytesOf bytes_of) {
  int cluster = 2;
  while (cluster < kMaxCluster && 2 * bytes_of(cluster) > 3 * kStagedSliceBytes) cluster *= 2;
  if (bytes_of(cluster) > 2 * kStagedSliceBytes) return {0, 0};
  const int64_t warps =
      (bytes_of(cluster) + kStagedThreadBytes * core::kWarp - 1) / (kStagedThreadBytes * core::kWarp);
  const int64_t threads = std::clamp<int64_t>(warps * core::kWarp, kStagedLeastThreads, kMaxRowThreads);
  return {cluster, static_cast<int>(threads)};
}

// Launches forward_staged_kernel on `rows` rows of `cols` elements (16-byte vectors from each row's
// start), unless the device cannot launch it in clusters, no cluster gives slices it takes (above),
// they do not fit the shared memory the device gives a block (as kSharedMemoryLimitVariable caps
// it), or the device cannot place such a cluster: then it returns false.
template <template <typename> class Norm, typename scalar_t, typename param_t, int kVec>
bool launch_forward_staged(const scalar_t* x, const scalar_t* residual, const param_t* weight,
                           const param_t* bias, scalar_t* y, scalar_t* residual_out, int64_t rows,
                           int64_t cols, cudaStream_t stream, at::opmath_type<scalar_t> eps) {
  const auto kernel = forward_staged_kernel<Norm, scalar_t, param_t, kVec>;
  static ClusterCache cluster_cache{};
  static core::OccupancyCache static_smem{}, smem_allowed{};
  if (!kernel_has_clusters(kernel, cluster_cache)) return false;
  constexpr int64_t kTensors = Norm<float>::kResidual ? 2 : 1;
  const int64_t col_vecs = cols / kVec;
  const auto slice_of = [&](int cluster) { return (col_vecs + cluster - 1) / cluster; };
  const auto bytes_of = [&](int cluster) { return slice_of(cluster) * kTensors * core::kMaxVectorBytes; };
  const auto [cluster, threads] = staged_geometry(bytes_of);
  if (cluster == 0) return false;
  const auto smem = static_cast<size_t>(bytes_of(cluster));
  if (!dynamic_shared_memory_fits(kernel, smem, static_smem.data())) return false;
  // Whether the device places the cluster is asked (and cached) for the most bytes a block of these
  // threads takes (staged_geometry: kStagedThreadBytes a thread), so that it follows from the
  // cluster and threads (max_active_clusters); with fewer, the device places at least as many.
  const auto most = static_cast<size_t>(threads) * kStagedThreadBytes;
  TORCH_INTERNAL_ASSERT(smem <= most, "a staged block takes at most kStagedThreadBytes a thread");
  allow_dynamic_shared_memory(kernel, most, smem_allowed.data());
  if (max_active_clusters(kernel, threads, most, cluster, cluster_cache) == 0) return false;
  launch(kernel, rows * cluster, threads, smem, stream, cluster, x, residual, weight, bias, y, residual_out,
         cols, slice_of(cluster), cluster, eps);
  return true;
}

template <template <typename> class Norm>
Outputs forward_cuda(const at::Tensor& x_in, const at::Tensor& residual_in, const at::Tensor& weight_in,
                     const at::Tensor& bias_in, double eps) {
  check_forward<Norm>(core::unqualified(Norm<float>::kName), x_in, residual_in, weight_in, bias_in, eps);
  const c10::cuda::CUDAGuard device_guard(x_in.device());
  const at::Tensor x = x_in.contiguous();
  const at::Tensor residual = residual_in.defined() ? residual_in.contiguous() : at::Tensor();
  const at::Tensor weight = weight_in.contiguous();
  const at::Tensor bias = bias_in.defined() ? bias_in.contiguous() : at::Tensor();
  Outputs outputs = allocate_outputs(x, Norm<float>::kResidual);
  if (x.numel() == 0) return outputs;
  // (Named references, not structured bindings, which C++17 lambdas cannot capture.)
  const at::Tensor& y = std::get<0>(outputs);
  const at::Tensor& residual_out = std::get<1>(outputs);
  const auto data = [](const at::Tensor& t) { return t.defined() ? t.const_data_ptr() : nullptr; };
  const int64_t cols = x.size(-1);
  const int64_t rows = x.numel() / cols;
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), Norm<float>::kName, [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    core::dispatch_parameter_type<scalar_t>(weight.scalar_type(), [&](auto param_tag) {
      using param_t = decltype(param_tag);
      const param_t* bias_data = bias.defined() ? bias.const_data_ptr<param_t>() : nullptr;
      const Width width = pick_vector_width<scalar_t, param_t>(
          cols, {x.const_data_ptr(), data(residual), y.const_data_ptr(), data(residual_out)},
          {weight.const_data_ptr(), bias_data});
      dispatch_width<scalar_t>(width, [&](auto vec_c, auto shifted_c) {
        constexpr int kVec = decltype(vec_c)::value;
        constexpr bool kShifted = decltype(shifted_c)::value;
        const int items = pick_forward_items<Norm, scalar_t, kShifted>(rows, cols / kVec);
        if constexpr (!kShifted && kVec * sizeof(scalar_t) == core::kMaxVectorBytes) {
          // Rows wider than a block's registers hold: staged in shared memory where the GPU allows.
          const bool staged =
              items == 0 && launch_forward_staged<Norm, scalar_t, param_t, kVec>(
                                x.const_data_ptr<scalar_t>(), static_cast<const scalar_t*>(data(residual)),
                                weight.const_data_ptr<param_t>(), bias_data, y.mutable_data_ptr<scalar_t>(),
                                residual_out.defined() ? residual_out.mutable_data_ptr<scalar_t>() : nullptr,
                                rows, cols, stream, static_cast<opmath_t>(eps));
          if (staged) return;
        }
        static ClusterCache cluster_cache{};
        const auto launch_rows = [&](auto items_c, auto cached_c, const RowLayout& layout) {
          constexpr int kItems = decltype(items_c)::value;
          constexpr bool kCached = decltype(cached_c)::value;
          const RowGeometry& g = layout.geometry;
          const int cluster = layout.cluster;
          const int64_t blocks = (rows + g.rows_per_block - 1) / g.rows_per_block * cluster;
          launch(forward_kernel_for<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted>(), blocks,
                 g.block_threads(), 0, stream, cluster, x.const_data_ptr<scalar_t>(),
                 static_cast<const scalar_t*>(data(residual)), weight.const_data_ptr<param_t>(), bias_data,
                 y.mutable_data_ptr<scalar_t>(),
                 residual_out.defined() ? residual_out.mutable_data_ptr<scalar_t>() : nullptr, rows, cols,
                 g.row_threads, layout.passes, cluster, static_cast<opmath_t>(eps));
        };
        dispatch_rows<kForwardItems, kForwardClusterThreads, kTwoItemRows<Norm, scalar_t, kShifted>>(
            cols, width, items,
            forward_kernel_for<Norm, scalar_t, param_t, kVec, kForwardItems, true, kShifted>(), cluster_cache,
            launch_rows);
      });
    });
  });
  return outputs;
}

template <template <typename> class Norm>
Grads backward_cuda(const at::Tensor& grad_out_in, const at::Tensor& grad_residual_out_in,
                    const at::Tensor& x_in, const at::Tensor& weight_in, const at::Tensor& bias_in,
                    double eps) {
  check_backward<Norm>(core::unqualified(Norm<float>::kName), grad_out_in, grad_residual_out_in, x_in,
                       weight_in, bias_in, eps);
  const c10::cuda::CUDAGuard device_guard(x_in.device());
  const at::Tensor grad_out = grad_out_in.contiguous();
  const at::Tensor grad_residual_out =
      grad_residual_out_in.defined() ? grad_residual_out_in.contiguous() : at::Tensor();
  const at::Tensor x = x_in.contiguous();
  const at::Tensor weight = weight_in.contiguous();
  Grads grads = allocate_grads(x, weight, bias_in);
  if (x.numel() == 0) return grads;
  // (Named references, not structured bindings, which C++17 lambdas cannot capture.)
  at::Tensor& grad_x = std::get<0>(grads);
  at::Tensor& grad_weight = std::get<1>(grads);
  at::Tensor& grad_bias = std::get<2>(grads);
  const int64_t cols = x.size(-1);
  const int64_t rows = x.numel() / cols;
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), Norm<float>::kName, [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    core::dispatch_parameter_type<scalar_t>(weight.scalar_type(), [&](auto param_tag) {
      using param_t = decltype(param_tag);
      const Width width = pick_vector_width<scalar_t, param_t>(
          cols,
          {x.const_data_ptr(), grad_out.const_data_ptr(),
           grad_residual_out.defined() ? grad_residual_out.const_data_ptr() : nullptr,
           grad_x.const_data_ptr()},
          {weight.const_data_ptr()});
      dispatch_width<scalar_t>(width, [&](auto vec_c, auto shifted_c) {
        constexpr int kVec = decltype(vec_c)::value;
        constexpr bool kShifted = decltype(shifted_c)::value;
        static ClusterCache cluster_cache{};  // the unstaged kernel of rows split over a cluster
        // (Caches are statics of these lambdas, so each kernel has its own.)
        const auto launch_layout = [&](auto items_c, auto in_registers_c, auto clustered_c,
                                       const RowLayout& layout) {
          constexpr int kItems = decltype(items_c)::value;
          constexpr bool kInRegisters = decltype(in_registers_c)::value;
          constexpr bool kClustered = decltype(clustered_c)::value;
          const RowGeometry& g = layout.geometry;
          const int cluster = layout.cluster;
          // Launches the kernel of kStages stages of `tensors` tensors each (unused where kStages is 0);
          // false, and nothing launched, where the device cannot place its clusters.
          const auto run = [&](auto stages_c, int tensors) {
            constexpr int kStages = decltype(stages_c)::value;
            const auto kernel = backward_kernel<Norm, scalar_t, param_t, kVec, kItems, kInRegisters, kStages,
                                                kShifted, kClustered, false>;
            // x and grad_out, and grad_residual_out only where it is given (the kernel's staging and
            // the host's caches, kStagedTensorCounts, know no other count).
            TORCH_INTERNAL_ASSERT(tensors == 2 || (tensors == 3 && grad_residual_out.defined()),
                                  "the backward stages two tensors, or three with grad_residual_out");
            size_t smem = 0;
            if constexpr (kStages > 0) smem = staging_bytes<kItems, kStages>(g.block_threads(), tensors);
            // The blocks (clusters) the device holds at once, which depends on the kernel, the block's
            // size and its shared memory (its staged tensors): one cache each.
            const int tensors_index = kStages > 0 ? tensors - 2 : 0;
            const int size_index = g.block_threads() / core::kWarp - 1;
            using BlockCaches = core::OccupancyCache[kStagedTensorCounts][kBlockSizes];
            const auto resident_blocks = [&](auto some_kernel, BlockCaches& caches) {
              int64_t blocks_per_sm = core::max_blocks_per_sm(some_kernel, g.block_threads(), smem,
                                                              caches[tensors_index][size_index].data());
              if constexpr (!Norm<float>::kCentered && sizeof(scalar_t) == 2 && kItems > 1 && kStages > 0 &&
                            !kShifted) {
                blocks_per_sm = backward_blocks_per_sm(blocks_per_sm, g.rows_per_block * cols);
              }
              return blocks_per_sm * core::multiprocessor_count();
            };
            // The kernel's arguments after the launch's own, `partial` the workspace (null: none), given
            // to `launch_kernel`.
            const auto with_arguments = [&](const auto& launch_kernel, opmath_t* partial) {
              return launch_kernel(
                  grad_out.const_data_ptr<scalar_t>(),
                  grad_residual_out.defined() ? grad_residual_out.const_data_ptr<scalar_t>() : nullptr,
                  x.const_data_ptr<scalar_t>(), weight.const_data_ptr<param_t>(),
                  grad_x.mutable_data_ptr<scalar_t>(), partial, grad_weight.mutable_data_ptr<param_t>(),
                  grad_bias.defined() ? grad_bias.mutable_data_ptr<param_t>() : nullptr, rows, cols,
                  g.row_threads, layout.passes, cluster, tensors, static_cast<opmath_t>(eps),
                  opmath_t(1) / static_cast<opmath_t>(cols));  // inv_n
            };
            // Without a workspace, where that applies (see keep_sums_in_grad_x): its own build of the
            // kernel, so that the others keep their registers; rows of one vector a thread keep the
            // workspace (lab AT6: 1.21 and 1.59 times as long at 4096 x 1024), as does a device that
            // refuses the cooperative launch.
            if constexpr (keep_applies<Norm, scalar_t, kItems, kStages, kShifted, kClustered>()) {
              if (g.block_threads() % core::kWarp == 0 && workspace_free_allowed()) {
                const auto keep_kernel = backward_kernel<Norm, scalar_t, param_t, kVec, kItems, kInRegisters,
                                                         kStages, kShifted, kClustered, true>;
                static core::OccupancyCache keep_smem_allowed{};
                allow_dynamic_shared_memory(keep_kernel, smem, keep_smem_allowed.data());
                static BlockCaches keep_caches{};
                const int64_t groups = backward_groups(resident_blocks(keep_kernel, keep_caches), rows, cols,
                                                       g.rows_per_block, 1);
                const auto launch_keep = [&](auto... arguments) {
                  return launch_cooperative(keep_kernel, groups, g.block_threads(), smem, stream,
                                            arguments...);
                };
                if (rows >= kRowsPerKeptRow * kept_rows<Norm, scalar_t>() * groups * g.rows_per_block &&
                    with_arguments(launch_keep, static_cast<opmath_t*>(nullptr)))
                  return true;
              }
            }
            if constexpr (kStages > 0) {
              static core::OccupancyCache smem_allowed{};
              allow_dynamic_shared_memory(kernel, smem, smem_allowed.data());
            }
            int64_t resident;
            if constexpr (kClustered && kStages == 0) {
              resident = layout.resident;  // this kernel is dispatch_rows' cluster_kernel, which it placed
            } else if constexpr (kClustered) {
              static ClusterCache kernel_cluster_cache[kStagedTensorCounts]{};
              resident = max_active_clusters(kernel, g.block_threads(), smem, cluster,
                                             kernel_cluster_cache[tensors_index]);
              if (resident == 0) return false;
            } else {
              static BlockCaches blocks_per_sm_caches{};
              resident = resident_blocks(kernel, blocks_per_sm_caches);
            }
            const int64_t groups =
                backward_groups(resident, rows, cols, g.rows_per_block, kShifted && kInRegisters ? kVec : 1);
            const int64_t partial_rows = groups * g.rows_per_block;
            const int64_t params = Norm<float>::kBias ? 2 : 1;
            const at::Tensor partial = at::empty(
                {params, partial_rows, cols}, x.options().dtype(c10::CppTypeToScalarType<opmath_t>::value));
            with_arguments(
                [&](auto... arguments) {
                  launch(kernel, groups * cluster, g.block_threads(), smem, stream, cluster, arguments...);
                  return true;
                },
                partial.mutable_data_ptr<opmath_t>());
            // Every row of the workspace is written: in registers, each row group writes its row, rows
            // or none (a cluster's blocks each their slice of it); in the workspace, each block (one
            // row group) has at least one row.
            sum_rows<param_t, opmath_t>(partial.const_data_ptr<opmath_t>(), params, grad_weight, grad_bias,
                                        partial_rows, cols, stream);
            return true;
          };
          // Staged where the vectors are 16 bytes, in as many stages (up to kMostStages) of as many
          // tensors (up to kMostStagedTensors; grad_residual_out only where given) as the shared memory
          // the GPU gives a block holds (at one vector a thread, two stages of two tensors always fit)
          // and, in clusters, as the device places; else not (dispatch_rows placed such clusters).
          using Three = std::integral_constant<int, 3>;
          using Two = std::integral_constant<int, 2>;
          using None = std::integral_constant<int, 0>;
          if constexpr (kInRegisters && kVec * sizeof(scalar_t) == core::kMaxVectorBytes) {
            // Whether kStages stages fit; the kernel's static shared memory in a cache for each.
            const auto fits = [&](auto stages_c, int tensors) {
              constexpr int kStages = decltype(stages_c)::value;
              static core::OccupancyCache static_smem{};
              return dynamic_shared_memory_fits(backward_kernel<Norm, scalar_t, param_t, kVec, kItems, true,
                                                                kStages, kShifted, kClustered, false>,
                                                staging_bytes<kItems, kStages>(g.block_threads(), tensors),
                                                static_smem.data());
            };
            const int most_tensors =
                grad_residual_out.defined() ? kMostStagedTensors<Norm<float>::kResidual> : 2;
            if constexpr (kMostStages<Norm<float>::kCentered, Norm<float>::kResidual, kShifted, kItems> ==
                          3) {
              if (fits(Three{}, most_tensors) && run(Three{}, most_tensors)) return;
            }
            for (int tensors = most_tensors; tensors >= 2; --tensors) {
              if (((kItems == 1 && tensors == 2) || fits(Two{}, tensors)) && run(Two{}, tensors)) return;
            }
          }
          run(None{}, 2);  // never refused: in clusters, it is the kernel whose clusters dispatch_rows placed
        };
        // Rows split over a cluster (kBackwardItems vectors a thread, in registers) take the kernels
        // that exchange their sums.
        const auto launch_rows = [&](auto items_c, auto in_registers_c, const RowLayout& layout) {
          if constexpr (decltype(in_registers_c)::value && decltype(items_c)::value == kBackwardItems) {
            if (layout.cluster > 1) {
              // ClusterExchange relies on row_reduce's block barrier: one row a block, over a warp.
              TORCH_INTERNAL_ASSERT(
                  layout.geometry.rows_per_block == 1 && layout.geometry.row_threads > core::kWarp,
                  "a block of a cluster holds one row's slice on more than a warp");
              return launch_layout(items_c, in_registers_c, std::true_type{}, layout);
            }
          }
          TORCH_INTERNAL_ASSERT(
              layout.cluster == 1,
              "a row split over a cluster takes kBackwardItems vectors a thread in registers");
          launch_layout(items_c, in_registers_c, std::false_type{}, layout);
        };
        dispatch_rows<kBackwardItems, kBackwardClusterThreads, false>(
            cols, width, pick_items(rows, cols / kVec, kBackwardItems),
            backward_kernel<Norm, scalar_t, param_t, kVec, kBackwardItems, true, 0, kShifted, true, false>,
            cluster_cache, launch_rows);
      });
    });
  });
  return grads;
}

}  // namespace generated_gelu::row_norm::cuda

// The line an operator's .cu ends with: ROW_NORM_CUDA_KERNELS(<namespace>, <norm struct>).
#define ROW_NORM_CUDA_KERNELS(ns, Norm)                                                       \
  TORCH_LIBRARY_IMPL(ns, CUDA, m) {                                                           \
    ::ns::row_norm::register_kernels<::ns::norms::Norm,                                       \
                                     ::ns::row_norm::cuda::forward_cuda<::ns::norms::Norm>,   \
                                     ::ns::row_norm::cuda::backward_cuda<::ns::norms::Norm>>( \
        m, c10::DispatchKey::CUDA);                                                           \
  }
