// The bias + activation family's CUDA kernels, for every operator of the family: the operator's
// .cu includes this header and registers them with BIAS_ACTIVATION_CUDA_KERNELS(namespace, Op).
//
// Both passes are memory-bound: the forward reads x and writes y, the backward reads grad_out and x
// and writes grad_x (it recomputes x + bias instead of saving it). The kernels therefore:
//  - move 16 bytes per load and store wherever the pointers allow it, whatever N is. When N is not a
//    multiple of the vector width, m consecutive rows (m * N a multiple of it) are processed as one
//    row of m * N elements whose bias repeats m times: every access stays a full, aligned vector, and
//    grad_bias folds the m copies of each column at the end (no scalar fallback, no cliff at odd N);
//  - give each thread one vector of columns, whose bias stays in registers, and several rows, whose
//    loads are all issued before the first one is used (the flat forward below excepted);
//  - choose the block shape from the tensor's shape: 32 threads (a warp) across the columns for tall
//    matrices, up to the whole block across for a few very wide rows, so no thread idles;
//  - forward: launch one block per few rows of a column strip, as an elementwise kernel does (many
//    short blocks let the hardware balance them; measured faster than a grid that fills the device
//    once and loops). With a bias that stays in cache, a flat kernel instead: x as one sequence of
//    vectors, one per thread, each vector's bias read at its column, as torch.compile's kernels do;
//    every warp then reads and writes whole 32-byte sectors, where a row strip whose rows are not a
//    multiple of 32 bytes (N = 1000 in a 2-byte type) writes 3% more sectors (ncu on an H200, lab 4).
//    Measured there in bfloat16, which had kept the row strips (lab 6, fix1 against v0): 3 to 8
//    points more of the copy rate at N = 1000 and 1023 for relu, sigmoid and silu, 11 to 16 more at
//    4096 x 1024; but at 32768 x 1023 the exact-erf gelu lost 4.3 points (62.4 to 58.1) and the
//    tanh gelu 1.5 (and in float16, flat before at two vectors a thread, 1.0 and 3.7, silu 1.2 and
//    sigmoid 0.4);
//  - backward: launch a grid that fills the device once, each block walking its rows with a stride
//    and summing grad_bias in fp32 registers and shared memory, so that there are few partial rows;
//    the last block of each column strip to finish adds the partial rows in a fixed order (with a
//    single block row, the block writes its sums directly). One launch, or two where a wide bias's
//    folded columns are summed across the grid (fold_columns_kernel); no atomics on the data. For
//    a few very wide rows, smaller blocks without a register bound (see backward_cuda).
// The labs cited below are in benchmarks/results/runs/ of the example this template renders: lab/
// (labs 1 and 2), lab345/ (labs 3 to 5), lab6/, lab78/ (labs 7 and 8), lab9/, lab10/ and lab11/.
#pragma once

#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/library.h>
#include <ATen/cuda/detail/IntegerDivider.cuh>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <tuple>
#include <type_traits>

#include "bias_activation/checks.h"
#include "core/cuda.cuh"

namespace generated_rmsnorm::bias_activation {

using core::load_opmath;
using core::round_to;
using core::Vector;

// The row strips' block: 128 threads (lab 3: 0 to 4 points more of the copy rate than 256 in
// bfloat16 at most shapes).
constexpr int kForwardThreads = 128;
constexpr int kBackwardThreads = 512;
// The backward's block for a few very wide rows, and how many elements make them worth it (see
// backward_cuda): kFewRowsMinElements, or kFewRowsMinFoldedElements where N is not a multiple of the
// vector width.
constexpr int kFewRowsBackwardThreads = 128;
constexpr int64_t kFewRowsMinElements = int64_t{6} << 20;
constexpr int64_t kFewRowsMinFoldedElements = int64_t{2} << 20;
// The most columns per thread for which the backward kernel's last strip sums the fold copies itself
// (see fold_columns_kernel).
constexpr int64_t kFoldInBlockSteps = 8;
// Rows a thread loads before it uses the first.
constexpr int kForwardRowsInFlight = 2;
constexpr int kBackwardRowsInFlight = 4;
// The flat forward: its block, and the largest bias for which it is used. Each vector reads its bias,
// which is nearly free from L1 and L2 while the bias is small; a large one (a few very wide rows)
// would be fetched again for every row. One vector a thread, as Inductor's kernel does at bfloat16
// 32768 x 1000 (128 threads, 32000 blocks: runs/lab345/lab_4_ncu.csv). Against two, from 32768 x
// 1000 up (lab 6, fix1 against fix): 0 to 2 points more of the copy rate for relu, sigmoid, silu
// and the tanh gelu at N = 1000, 4096 and 8192 in every dtype; at N = 1023 in the 2-byte types up
// to 4.6 points less for all but relu; 0.9 to 2.8 less for the exact-erf gelu. The same kernel
// timed in two variants of lab 6 differed by up to 2.7 points: most of these differences are
// within that spread.
constexpr int kFlatThreads = 128;
constexpr int64_t kFlatMaxBiasBytes = 256 * 1024;
// The flat kernel divides offsets by N in 32 bits: it sees x as chunks of whole rows, each of at most
// this many elements.
constexpr int64_t kFlatChunkElements = int64_t{1} << 30;

// How the kernels see x: `rows` whole rows of `col_vecs` vectors (each row is `fold` rows of x, see
// the top of the file), then `tail` elements that do not fill a whole row (a few rows of x at most).
struct Layout {
  int64_t rows;
  int64_t col_vecs;
  int64_t period;  // N, the length of bias: column c of a kernel row uses bias[c % N]
  int64_t fold;    // rows of x per kernel row: col_vecs * kVec == fold * N
  int64_t tail;
};

template <int kVec>
Layout make_layout(int64_t numel, int64_t cols) {
  const int64_t fold = kVec / std::gcd<int64_t>(cols, kVec);
  const int64_t width = fold * cols;
  return {numel / width, width / kVec, cols, fold, numel % width};
}

// The bias of kVec columns, first..first + kVec - 1 of a kernel row (wrapping at N): whole vectors
// when it can, else a scalar gather. kForward: the forward kernels' form, 16-byte pieces (two for a
// float32 bias with a half x, as autocast passes) each loaded into registers, then converted by
// words. The flat forward reads the bias for every vector of x, and converted straight from memory,
// each element had been a load instruction of its own. The backward reads it once per thread and
// keeps the element-wise forms (a float32 bias with a half x: the scalar gather): with the forward's
// forms there (lab 6, v0 against fix), the float32 exact-erf gelu backward fell from 86 to 82% of
// copy at 32768 x 1000 and the bfloat16 silu backward from 81 to 72% at 4 x 4194304.
template <int kVec, bool kForward, typename opmath_t, typename bias_t>
__device__ __forceinline__ void load_bias(const bias_t* __restrict__ bias, int64_t first, int64_t period,
                                          opmath_t (&b)[kVec]) {
  if constexpr (kForward) {
    constexpr int kPiece = std::min<int>(kVec, core::kMaxVectorBytes / sizeof(bias_t));
    using Piece = Vector<bias_t, kPiece>;
    if (first + kVec <= period && reinterpret_cast<std::uintptr_t>(bias + first) % sizeof(Piece) == 0) {
#pragma unroll
      for (int p = 0; p < kVec; p += kPiece) {
        const Piece in = *reinterpret_cast<const Piece*>(bias + first + p);
        opmath_t part[kPiece];
        core::load_opmath_by_words(in, part);
#pragma unroll
        for (int i = 0; i < kPiece; ++i) b[p + i] = part[i];
      }
      return;
    }
  } else if constexpr (sizeof(Vector<bias_t, kVec>) <= core::kMaxVectorBytes) {
    if (first + kVec <= period &&
        reinterpret_cast<std::uintptr_t>(bias + first) % sizeof(Vector<bias_t, kVec>) == 0) {
      load_opmath(*reinterpret_cast<const Vector<bias_t, kVec>*>(bias + first), b);
      return;
    }
  }
  int64_t c = first;
  while (c >= period) c -= period;  // first < fold * N with fold <= kVec: a few steps at most
#pragma unroll
  for (int i = 0; i < kVec; ++i) {
    b[i] = static_cast<opmath_t>(bias[c]);
    c = c + 1 == period ? 0 : c + 1;
  }
}

struct Geometry {
  dim3 grid;
  dim3 block;
};

// Block shape and grid from the shape of the work: `threads` threads, `rows_per_thread` rows each.
// Across the columns: a warp (one vector each), fewer for narrow rows; then, if there are too few
// rows to give every thread its rows, fewer threads down and more across. Down the rows: one block
// per rows_per_thread * block.y rows of each column strip, but at most max_blocks blocks (the block
// rows then loop with a stride) and at most 65535 block rows (the hardware's limit).
inline Geometry make_geometry(int threads, int64_t rows, int64_t col_vecs, int rows_per_thread,
                              int64_t max_blocks) {
  int across = core::kWarp;
  while (across / 2 >= col_vecs && across > 1) across /= 2;
  int down = threads / across;
  while (down > 1 && static_cast<int64_t>(down / 2) * rows_per_thread >= rows) down /= 2;
  while (across * 2 * down <= threads && across < col_vecs) across *= 2;
  const int64_t strips = (col_vecs + across - 1) / across;
  TORCH_CHECK(strips <= std::numeric_limits<int>::max(), "x.size(-1) is too large");
  const int64_t rows_per_block = static_cast<int64_t>(down) * rows_per_thread;
  const int64_t useful = std::max<int64_t>((rows + rows_per_block - 1) / rows_per_block, 1);
  const int64_t row_blocks = std::clamp<int64_t>(std::min(useful, max_blocks / strips), 1, 65535);
  return {dim3(static_cast<unsigned>(strips), static_cast<unsigned>(row_blocks)),
          dim3(static_cast<unsigned>(across), static_cast<unsigned>(down))};
}

template <template <typename> class Op, typename scalar_t, int kVec, typename opmath_t>
__device__ __forceinline__ Vector<scalar_t, kVec> forward_vector(const Vector<scalar_t, kVec>& x,
                                                                 const opmath_t (&b)[kVec]) {
  opmath_t h[kVec];
  core::load_opmath_by_words(x, h);
#pragma unroll
  for (int i = 0; i < kVec; ++i) h[i] = Op<opmath_t>::forward(h[i] + b[i]);
  return round_to<scalar_t>(h);
}

// grad_x for one vector; adds it to acc (this thread's share of grad_bias).
template <template <typename> class Op, typename scalar_t, int kVec, typename opmath_t>
__device__ __forceinline__ Vector<scalar_t, kVec> backward_vector(const Vector<scalar_t, kVec>& grad_out,
                                                                  const Vector<scalar_t, kVec>& x,
                                                                  const opmath_t (&b)[kVec],
                                                                  opmath_t (&acc)[kVec]) {
  opmath_t g[kVec], h[kVec];
  load_opmath(grad_out, g);
  load_opmath(x, h);
#pragma unroll
  for (int i = 0; i < kVec; ++i) {
    g[i] *= Op<opmath_t>::backward(h[i] + b[i]);
    acc[i] += g[i];
  }
  return round_to<scalar_t>(g);
}

template <template <typename> class Op, typename scalar_t, typename bias_t, int kVec>
__global__ void __launch_bounds__(kForwardThreads)
    forward_kernel(const scalar_t* __restrict__ x, const bias_t* __restrict__ bias, scalar_t* __restrict__ y,
                   Layout layout) {
  using opmath_t = at::opmath_type<scalar_t>;
  using V = Vector<scalar_t, kVec>;
  const int64_t cv = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (cv >= layout.col_vecs) return;
  opmath_t b[kVec];
  load_bias<kVec, true>(bias, cv * kVec, layout.period, b);
  const int64_t col_vecs = layout.col_vecs;
  // The elements after the last whole row, one at a time, by the first row of threads (before the
  // main loop, as in the backward kernel).
  if (layout.tail > 0 && blockIdx.y == 0 && threadIdx.y == 0) {
    const int64_t first = cv * kVec;
    const int64_t base = layout.rows * col_vecs * kVec + first;
#pragma unroll
    for (int i = 0; i < kVec; ++i) {
      if (first + i < layout.tail) {
        y[base + i] = static_cast<scalar_t>(Op<opmath_t>::forward(static_cast<opmath_t>(x[base + i]) + b[i]));
      }
    }
  }
  const V* xv = reinterpret_cast<const V*>(x) + cv;
  V* yv = reinterpret_cast<V*>(y) + cv;
  const int64_t stride = static_cast<int64_t>(gridDim.y) * blockDim.y;
  int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  for (; r + (kForwardRowsInFlight - 1) * stride < layout.rows; r += kForwardRowsInFlight * stride) {
    V in[kForwardRowsInFlight];
#pragma unroll
    for (int u = 0; u < kForwardRowsInFlight; ++u) in[u] = xv[(r + u * stride) * col_vecs];
#pragma unroll
    for (int u = 0; u < kForwardRowsInFlight; ++u)
      yv[(r + u * stride) * col_vecs] = forward_vector<Op>(in[u], b);
  }
  for (; r < layout.rows; r += stride) yv[r * col_vecs] = forward_vector<Op>(xv[r * col_vecs], b);
}

// How the flat forward sees x: `vecs` vectors in chunks of `chunk_vecs` (each chunk whole rows, so a
// vector's first column is its offset in the chunk mod N), then `tail` elements (fewer than a vector).
struct FlatLayout {
  int64_t vecs;
  int64_t chunk_vecs;
  int64_t cols;
  int64_t tail;
  at::cuda::detail::IntDivider<uint32_t> column;  // divides by N with a multiply-high and a shift
};

template <template <typename> class Op, typename scalar_t, typename bias_t, int kVec>
__global__ void __launch_bounds__(kFlatThreads)
    flat_forward_kernel(const scalar_t* __restrict__ x, const bias_t* __restrict__ bias,
                        scalar_t* __restrict__ y, FlatLayout layout) {
  using opmath_t = at::opmath_type<scalar_t>;
  using V = Vector<scalar_t, kVec>;
  // The elements after the last whole vector, one per thread of the first block.
  if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x < layout.tail) {
    const int64_t e = layout.vecs * kVec + threadIdx.x;
    const opmath_t h = static_cast<opmath_t>(x[e]) + static_cast<opmath_t>(bias[e % layout.cols]);
    y[e] = static_cast<scalar_t>(Op<opmath_t>::forward(h));
  }
  const int64_t first = static_cast<int64_t>(blockIdx.y) * layout.chunk_vecs;
  const auto count = static_cast<uint32_t>(std::min(layout.chunk_vecs, layout.vecs - first));
  const uint32_t v = blockIdx.x * kFlatThreads + threadIdx.x;
  if (v >= count) return;
  const V in = reinterpret_cast<const V*>(x)[first + v];
  opmath_t b[kVec];
  load_bias<kVec, true>(bias, layout.column.divmod(v * kVec).mod, layout.cols, b);
  reinterpret_cast<V*>(y)[first + v] = forward_vector<Op>(in, b);
}

// The backward kernel's launch bounds: the blocks per multiprocessor it must fit, which caps its
// registers. float16 and bfloat16 with many rows: one, i.e. up to 128 registers a thread (the
// compiler then takes 111 to 122 for 8 columns, where unbounded it took 60 to 64 and fit two
// blocks); measured on an H200, a forward+backward 4 to 6% faster at 4096 x 1024 and larger shapes.
// A few very wide rows (kFewRows) run with no minimum of blocks, in blocks of
// kFewRowsBackwardThreads (see backward_cuda). float32 and float64: 0, no bound, the compiler's
// choice (a bound of three blocks made the exact-erf gelu's spill, and one slowed the tanh GELU's).
template <typename scalar_t, bool kFewRows>
constexpr int backward_min_blocks() {
  return kFewRows || std::is_same_v<scalar_t, at::opmath_type<scalar_t>> ? 0 : 1;
}

// Where the sum of a kernel column goes: straight to grad_bias, or (fold > 1) to folded.
template <typename bias_t, typename opmath_t>
__device__ __forceinline__ void finish_column(int64_t column, opmath_t total, int64_t fold,
                                              bias_t* __restrict__ grad_bias, opmath_t* __restrict__ folded) {
  if (fold == 1) {
    grad_bias[column] = static_cast<bias_t>(total);
  } else {
    folded[column] = total;
  }
}

// grad_x = grad_out * activation'(x + bias); grad_bias = sum over the rows of x of grad_x.
// partial: [gridDim.y, col_vecs * kVec] sums of each block row (used when gridDim.y > 1);
// folded: [col_vecs * kVec] sums of each kernel column (used when fold > 1);
// counters: [gridDim.x + 1] zeros (blocks done per strip, then strips done).
template <template <typename> class Op, typename scalar_t, typename bias_t, int kVec, int kMinBlocks>
__global__ void __launch_bounds__(kBackwardThreads, kMinBlocks)
    backward_kernel(const scalar_t* __restrict__ grad_out, const scalar_t* __restrict__ x,
                    const bias_t* __restrict__ bias, scalar_t* __restrict__ grad_x,
                    bias_t* __restrict__ grad_bias, at::opmath_type<scalar_t>* __restrict__ partial,
                    at::opmath_type<scalar_t>* __restrict__ folded, unsigned int* __restrict__ counters,
                    Layout layout, bool fold_in_block) {
  using opmath_t = at::opmath_type<scalar_t>;
  using V = Vector<scalar_t, kVec>;
  extern __shared__ unsigned char smem_raw[];
  opmath_t* smem = reinterpret_cast<opmath_t*>(smem_raw);  // [blockDim.y][blockDim.x * kVec]
  __shared__ bool is_last;

  const int64_t col_vecs = layout.col_vecs;
  const int64_t cv = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  opmath_t acc[kVec];
#pragma unroll
  for (int i = 0; i < kVec; ++i) acc[i] = opmath_t(0);

  if (cv < col_vecs) {
    opmath_t b[kVec];
    load_bias<kVec, false>(bias, cv * kVec, layout.period, b);
    // The elements after the last whole row, one at a time, by the first row of threads: first,
    // while few registers are live (after the main loop, this code made the compiler use more
    // registers for the whole kernel, and fewer blocks fit on a multiprocessor).
    if (layout.tail > 0 && blockIdx.y == 0 && threadIdx.y == 0) {
      const int64_t first = cv * kVec;
      const int64_t base = layout.rows * col_vecs * kVec + first;
#pragma unroll
      for (int i = 0; i < kVec; ++i) {
        if (first + i < layout.tail) {
          const opmath_t h = static_cast<opmath_t>(x[base + i]) + b[i];
          const opmath_t g = static_cast<opmath_t>(grad_out[base + i]) * Op<opmath_t>::backward(h);
          grad_x[base + i] = static_cast<scalar_t>(g);
          acc[i] += g;
        }
      }
    }
    const V* gv = reinterpret_cast<const V*>(grad_out) + cv;
    const V* xv = reinterpret_cast<const V*>(x) + cv;
    V* dxv = reinterpret_cast<V*>(grad_x) + cv;
    const int64_t stride = static_cast<int64_t>(gridDim.y) * blockDim.y;
    int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    for (; r + (kBackwardRowsInFlight - 1) * stride < layout.rows; r += kBackwardRowsInFlight * stride) {
      V g_in[kBackwardRowsInFlight], x_in[kBackwardRowsInFlight];
#pragma unroll
      for (int u = 0; u < kBackwardRowsInFlight; ++u) {
        g_in[u] = gv[(r + u * stride) * col_vecs];
        x_in[u] = xv[(r + u * stride) * col_vecs];
      }
#pragma unroll
      for (int u = 0; u < kBackwardRowsInFlight; ++u) {
        dxv[(r + u * stride) * col_vecs] = backward_vector<Op>(g_in[u], x_in[u], b, acc);
      }
    }
    for (; r < layout.rows; r += stride) {
      dxv[r * col_vecs] = backward_vector<Op>(gv[r * col_vecs], xv[r * col_vecs], b, acc);
    }
  }

  const int64_t cols = col_vecs * kVec;
  // Sum the block's rows: thread (x, y) holds kVec columns; add over y in a fixed order.
  const int width = blockDim.x * kVec;
  const int64_t col0 = static_cast<int64_t>(blockIdx.x) * width;  // first column of this strip
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int threads = blockDim.x * blockDim.y;
#pragma unroll
  for (int i = 0; i < kVec; ++i) smem[threadIdx.y * width + threadIdx.x * kVec + i] = acc[i];
  __syncthreads();
  for (int c = tid; c < width; c += threads) {
    if (col0 + c >= cols) continue;
    opmath_t sum = 0;
    for (int k = 0; k < static_cast<int>(blockDim.y); ++k) sum += smem[k * width + c];
    if (gridDim.y == 1) {
      finish_column(col0 + c, sum, layout.fold, grad_bias, folded);
    } else {
      partial[static_cast<int64_t>(blockIdx.y) * cols + col0 + c] = sum;
    }
  }

  if (gridDim.y > 1) {
    // The last block of this column strip to get here adds the strip's partial rows.
    __threadfence();
    __syncthreads();
    if (tid == 0) is_last = atomicAdd(&counters[blockIdx.x], 1u) == gridDim.y - 1;
    __syncthreads();
    if (!is_last) return;
    __threadfence();
    // Thread (x, y) adds partial rows y, y + blockDim.y, ... of its kVec columns, then the block adds
    // the blockDim.y sums in order of y. The order depends only on the grid, never on timing.
    opmath_t sum[kVec];
#pragma unroll
    for (int i = 0; i < kVec; ++i) sum[i] = opmath_t(0);
    const int64_t my_col = col0 + static_cast<int64_t>(threadIdx.x) * kVec;
    if (my_col < cols) {
      // Unrolled: several partial rows' loads in flight at once.
#pragma unroll 4
      for (int64_t k = threadIdx.y; k < gridDim.y; k += blockDim.y) {
#pragma unroll
        for (int i = 0; i < kVec; ++i) sum[i] += __ldcg(&partial[k * cols + my_col + i]);
      }
    }
    __syncthreads();  // every thread is done reading smem from the first reduction
#pragma unroll
    for (int i = 0; i < kVec; ++i) smem[threadIdx.y * width + threadIdx.x * kVec + i] = sum[i];
    __syncthreads();
    for (int c = tid; c < width; c += threads) {
      if (col0 + c >= cols) continue;
      opmath_t total = 0;
      for (int k = 0; k < static_cast<int>(blockDim.y); ++k) total += smem[k * width + c];
      finish_column(col0 + c, total, layout.fold, grad_bias, folded);
    }
  }
  if (layout.fold == 1 || !fold_in_block) return;

  // fold > 1 with a narrow bias: the last strip to finish adds the fold copies of each column, in
  // order (a wide one: fold_columns_kernel).
  __threadfence();
  __syncthreads();
  if (tid == 0) is_last = atomicAdd(&counters[gridDim.x], 1u) == gridDim.x - 1;
  __syncthreads();
  if (!is_last) return;
  __threadfence();
  for (int64_t c = tid; c < layout.period; c += threads) {
    opmath_t total = 0;
    for (int64_t k = 0; k < layout.fold; ++k) total += __ldcg(&folded[c + k * layout.period]);
    grad_bias[c] = static_cast<bias_t>(total);
  }
}

// grad_bias[c] = the sum of the fold copies of column c in `folded`, in order (the order of the
// backward kernel's in-block sum, so both give the same bits), one column a thread across the grid.
// For a wide bias, where the backward kernel's last strip summed them in one block, the backward at
// 48 x 100003 took 96 to 102 us in 512-thread blocks and 299 to 313 us in 128-thread blocks (lab 9);
// with this kernel, 17 to 22 us (lab 10).
template <typename bias_t, typename opmath_t>
__global__ void fold_columns_kernel(const opmath_t* __restrict__ folded, bias_t* __restrict__ grad_bias,
                                    int64_t period, int64_t fold) {
  const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= period) return;
  opmath_t total = 0;
  for (int64_t k = 0; k < fold; ++k) total += folded[c + k * period];
  grad_bias[c] = static_cast<bias_t>(total);
}

// The widest vector (in elements) that every pointer's alignment allows and that leaves at least
// one whole kernel row (fold rows of x); narrower where x has fewer rows than that.
template <typename scalar_t>
int pick_vector_width(int64_t numel, int64_t cols, std::initializer_list<const void*> pointers) {
  int vec = core::kMaxVectorBytes / static_cast<int>(sizeof(scalar_t));
  auto fits = [&](int v) {
    return core::aligned_to<scalar_t>(v, pointers) && numel >= v / std::gcd<int64_t>(cols, v) * cols;
  };
  while (vec > 1 && !fits(vec)) vec /= 2;
  return vec;
}

template <template <typename> class Op>
at::Tensor forward_cuda(const at::Tensor& x_in, const at::Tensor& bias_in) {
  check_inputs(core::unqualified(Op<float>::kName), x_in, bias_in);
  const c10::cuda::CUDAGuard device_guard(x_in.device());
  const at::Tensor x = x_in.contiguous();
  const at::Tensor bias = bias_in.contiguous();
  at::Tensor y = at::empty(x.sizes(), x.options());
  if (y.numel() == 0) return y;
  const int64_t cols = x.size(-1);
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), Op<float>::kName, [&] {
    const int vec = pick_vector_width<scalar_t>(x.numel(), cols, {x.const_data_ptr(), y.const_data_ptr()});
    core::dispatch_parameter_type<scalar_t>(bias.scalar_type(), [&](auto bias_tag) {
      using bias_t = decltype(bias_tag);
      core::dispatch_vector_width<scalar_t>(vec, [&](auto vec_c) {
        constexpr int kVec = decltype(vec_c)::value;
        const Layout layout = make_layout<kVec>(x.numel(), cols);
        const int64_t unit = layout.fold * cols;  // the fewest whole rows that are whole vectors
        // The flat kernel gathers a bias piece that does not start on a 16-byte boundary element by
        // element: most vectors when N is not a multiple of the vector width. With a bias wider than
        // x (a float32 bias with a half x, as autocast passes) that is up to eight 4-byte loads per
        // vector of x; the row strips, whose threads load their bias once, moved 1.5 to 4.9 points
        // more of the copy rate at 32768 x 1023 and 16384 x 2047 (kVec = 8), though 3 to 6 fewer
        // for silu and the tanh gelu at 4096 x 1023 (lab 8 of the example's benchmarks/results/runs/).
        const bool gathers_wide_bias = layout.fold > 1 && sizeof(bias_t) > sizeof(scalar_t);
        if (cols * static_cast<int64_t>(sizeof(bias_t)) <= kFlatMaxBiasBytes && unit <= kFlatChunkElements &&
            !gathers_wide_bias) {
          const FlatLayout flat{x.numel() / kVec, kFlatChunkElements / unit * unit / kVec, cols,
                                x.numel() % kVec,
                                at::cuda::detail::IntDivider<uint32_t>(static_cast<uint32_t>(cols))};
          const int64_t blocks = (std::min(flat.chunk_vecs, flat.vecs) + kFlatThreads - 1) / kFlatThreads;
          const int64_t chunks = (flat.vecs + flat.chunk_vecs - 1) / flat.chunk_vecs;
          flat_forward_kernel<Op, scalar_t, bias_t, kVec>
              <<<dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(chunks)), kFlatThreads, 0,
                 stream>>>(x.const_data_ptr<scalar_t>(), bias.const_data_ptr<bias_t>(),
                           y.mutable_data_ptr<scalar_t>(), flat);
          C10_CUDA_KERNEL_LAUNCH_CHECK();
          return;
        }
        const Geometry g = make_geometry(kForwardThreads, layout.rows, layout.col_vecs, kForwardRowsInFlight,
                                         std::numeric_limits<int64_t>::max());
        forward_kernel<Op, scalar_t, bias_t, kVec>
            <<<g.grid, g.block, 0, stream>>>(x.const_data_ptr<scalar_t>(), bias.const_data_ptr<bias_t>(),
                                             y.mutable_data_ptr<scalar_t>(), layout);
        C10_CUDA_KERNEL_LAUNCH_CHECK();
      });
    });
  });
  return y;
}

// Launches the backward kernel over x seen as `layout` (blocks of kBackwardThreads threads, or for a
// few very wide rows (kFewRows) kFewRowsBackwardThreads threads and no minimum of blocks), then, for
// a wide bias at N not a multiple of the vector width, fold_columns_kernel.
template <template <typename> class Op, typename scalar_t, typename bias_t, int kVec, bool kFewRows>
void launch_backward(const at::Tensor& grad_out, const at::Tensor& x, const at::Tensor& bias,
                     at::Tensor& grad_x, at::Tensor& grad_bias, const Layout& layout, cudaStream_t stream) {
  using opmath_t = at::opmath_type<scalar_t>;
  constexpr int kThreads = kFewRows ? kFewRowsBackwardThreads : kBackwardThreads;
  const auto kernel = backward_kernel<Op, scalar_t, bias_t, kVec, backward_min_blocks<scalar_t, kFewRows>()>;
  const size_t smem = static_cast<size_t>(kThreads) * kVec * sizeof(opmath_t);
  static core::OccupancyCache blocks_per_sm_cache{};
  const int blocks_per_sm = core::max_blocks_per_sm(kernel, kThreads, smem, blocks_per_sm_cache.data());
  const Geometry g = make_geometry(kThreads, layout.rows, layout.col_vecs, kBackwardRowsInFlight,
                                   static_cast<int64_t>(core::multiprocessor_count()) * blocks_per_sm);
  // One scratch buffer: the partial rows (several block rows only), the folded columns (fold > 1
  // only) and the counters, which alone need zeros. A single block row with no folding needs none
  // of them: no allocation, no memset (small tensors pay for each call). (With folded columns summed
  // by fold_columns_kernel and one block row, nothing reads the counters: their memset could go,
  // once a GPU run has measured that.)
  const int64_t kernel_cols = layout.col_vecs * kVec;
  const int64_t partial_bytes =
      g.grid.y > 1 ? static_cast<int64_t>(g.grid.y) * kernel_cols * sizeof(opmath_t) : 0;
  const int64_t folded_bytes = layout.fold > 1 ? kernel_cols * static_cast<int64_t>(sizeof(opmath_t)) : 0;
  at::Tensor workspace;
  uint8_t* base = nullptr;
  unsigned int* counters = nullptr;
  if (partial_bytes + folded_bytes > 0) {
    const int64_t counter_bytes = (static_cast<int64_t>(g.grid.x) + 1) * sizeof(unsigned int);
    workspace = at::empty({partial_bytes + folded_bytes + counter_bytes}, x.options().dtype(at::kByte));
    base = workspace.mutable_data_ptr<uint8_t>();
    counters = reinterpret_cast<unsigned int*>(base + partial_bytes + folded_bytes);
    C10_CUDA_CHECK(cudaMemsetAsync(counters, 0, counter_bytes, stream));
  }
  // The fold copies of each column are summed in the kernel's last strip while that takes one block a
  // few steps; for a wider bias, by fold_columns_kernel across the grid.
  const bool fold_in_block = layout.period <= kFoldInBlockSteps * kThreads;
  opmath_t* folded = reinterpret_cast<opmath_t*>(base + partial_bytes);
  kernel<<<g.grid, g.block, smem, stream>>>(
      grad_out.const_data_ptr<scalar_t>(), x.const_data_ptr<scalar_t>(), bias.const_data_ptr<bias_t>(),
      grad_x.mutable_data_ptr<scalar_t>(), grad_bias.mutable_data_ptr<bias_t>(),
      reinterpret_cast<opmath_t*>(base), folded, counters, layout, fold_in_block);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  if (layout.fold > 1 && !fold_in_block) {
    constexpr int kFoldThreads = 256;
    fold_columns_kernel<<<static_cast<unsigned>((layout.period + kFoldThreads - 1) / kFoldThreads),
                          kFoldThreads, 0, stream>>>(folded, grad_bias.mutable_data_ptr<bias_t>(),
                                                     layout.period, layout.fold);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  }
}

template <template <typename> class Op>
std::tuple<at::Tensor, at::Tensor> backward_cuda(const at::Tensor& grad_out_in, const at::Tensor& x_in,
                                                 const at::Tensor& bias_in) {
  check_inputs(core::unqualified(Op<float>::kName), x_in, bias_in, grad_out_in);
  const c10::cuda::CUDAGuard device_guard(x_in.device());
  const at::Tensor grad_out = grad_out_in.contiguous();
  const at::Tensor x = x_in.contiguous();
  const at::Tensor bias = bias_in.contiguous();
  at::Tensor grad_x = at::empty(x.sizes(), x.options());
  if (x.numel() == 0) return {grad_x, at::zeros(bias.sizes(), bias.options())};
  at::Tensor grad_bias = at::empty(bias.sizes(), bias.options());
  const int64_t cols = x.size(-1);
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), Op<float>::kName, [&] {
    const int vec = pick_vector_width<scalar_t>(
        x.numel(), cols, {grad_out.const_data_ptr(), x.const_data_ptr(), grad_x.const_data_ptr()});
    core::dispatch_parameter_type<scalar_t>(bias.scalar_type(), [&](auto bias_tag) {
      using bias_t = decltype(bias_tag);
      core::dispatch_vector_width<scalar_t>(vec, [&](auto vec_c) {
        constexpr int kVec = decltype(vec_c)::value;
        const Layout layout = make_layout<kVec>(x.numel(), cols);
        // A few very wide rows: every thread of a kBackwardThreads block would walk its rows once
        // (one block row), so blocks are short-lived and the tail of each, its sum and exit, leaves
        // the multiprocessor idle unless many small blocks overlap; smaller blocks without a
        // register bound run better there, once the tensor is large enough to pay for what they
        // add (more block rows: a workspace, its memset and the last blocks' sums). The bounds were
        // chosen from an H200's times of the backward alone at 25 shapes of up to 64 rows (labs 9
        // to 11, lab11/choose.txt, in the example's benchmarks/results/runs/): from 6 Mi elements
        // the smaller blocks were up to 8.5 us faster (up to 1.6 us slower at a few shapes; two
        // timings of one kernel differed by up to 1.4 us); below it, up to 5.6 us slower (up to
        // 1.2 us faster at a few float32 shapes). With N not a multiple of the vector width both
        // need a workspace, and the smaller blocks were 0.8 to 5.3 us faster at the three such
        // shapes measured, of 2.3 to 4.8 million elements (33 x 70001, 24 x 100003, 48 x 100003);
        // their bound, 2 Mi, lies a little below them, where nothing was measured.
        const bool one_block_row = make_geometry(kBackwardThreads, layout.rows, layout.col_vecs,
                                                 kBackwardRowsInFlight, std::numeric_limits<int64_t>::max())
                                       .grid.y == 1;
        const int64_t min_elements = layout.fold > 1 ? kFewRowsMinFoldedElements : kFewRowsMinElements;
        const bool few_rows = one_block_row && x.numel() >= min_elements;
        if (few_rows) {
          launch_backward<Op, scalar_t, bias_t, kVec, true>(grad_out, x, bias, grad_x, grad_bias, layout,
                                                            stream);
        } else {
          launch_backward<Op, scalar_t, bias_t, kVec, false>(grad_out, x, bias, grad_x, grad_bias, layout,
                                                             stream);
        }
      });
    });
  });
  return {grad_x, grad_bias};
}

// Registers the CUDA kernels of the operator Op (in a TORCH_LIBRARY_IMPL(namespace, CUDA, m) block).
template <template <typename> class Op>
void register_cuda(torch::Library& m) {
  const std::string name = core::unqualified(Op<float>::kName);
  const std::string backward_name = name + "_backward";
  m.impl(name.c_str(), TORCH_FN(forward_cuda<Op>));
  m.impl(backward_name.c_str(), TORCH_FN(backward_cuda<Op>));
}

}  // namespace generated_rmsnorm::bias_activation

// The line an operator's .cu ends with: BIAS_ACTIVATION_CUDA_KERNELS(<namespace>, <activation struct>).
#define BIAS_ACTIVATION_CUDA_KERNELS(ns, Op)                        \
  TORCH_LIBRARY_IMPL(ns, CUDA, m) {                                 \
    ::ns::bias_activation::register_cuda<::ns::activations::Op>(m); \
  }
