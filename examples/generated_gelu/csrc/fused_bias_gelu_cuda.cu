// CUDA kernels of generated_gelu::fused_bias_gelu.
//
// Both passes are memory-bound: the forward reads x and writes y, the backward reads grad_out and x
// and writes grad_x (it recomputes x + bias instead of saving it). The kernels therefore:
//  - move 16 bytes per load and store wherever N and the pointers allow it (narrower otherwise);
//  - give each thread one vector of columns, whose bias stays in registers, and several rows, whose
//    loads are all issued before the first one is used;
//  - forward: launch one block per few rows of a column strip, as an elementwise kernel does (many
//    short blocks let the hardware balance them; measured 97-100% of the copy bandwidth on an
//    H200, against 86-94% for a grid that fills the device once and loops);
//  - backward: launch a grid that fills the device once, each block walking its rows with a stride
//    and summing grad_bias in fp32 registers and shared memory, so that there are few partial rows;
//    the last block of each column strip to finish adds the partial rows in a fixed order. One
//    launch, no atomics on the data: identical bits every run.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/library.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "fused_bias_gelu.h"

namespace generated_gelu::fused_bias_gelu {

namespace {

constexpr int kMaxVectorBytes = 16;  // widest load and store a thread can issue
constexpr int kWarp = 32;
constexpr int kForwardThreads = 256;
constexpr int kBackwardThreads = 512;
// Rows a thread loads before it uses the first (the best of 2, 4 and 8 measured on an H200).
constexpr int kForwardRowsInFlight = 2;
constexpr int kBackwardRowsInFlight = 4;

// The kernels' names in the error for an unsupported dtype.
constexpr const char* kForwardName = "fused_bias_gelu_cuda";
constexpr const char* kBackwardName = "fused_bias_gelu_backward_cuda";

template <typename T, int kVec>
struct alignas(sizeof(T) * kVec) Vector {
  T v[kVec];
};

// Loads kVec elements as opmath_t.
template <typename opmath_t, typename scalar_t, int kVec>
__device__ __forceinline__ void load_opmath(const Vector<scalar_t, kVec>& in, opmath_t (&out)[kVec]) {
#pragma unroll
  for (int i = 0; i < kVec; ++i) out[i] = static_cast<opmath_t>(in.v[i]);
}

// Rounds kVec opmath_t values to scalar_t. float16 and bfloat16 are converted two at a time: the
// paired conversion runs on the ALU, while a single float-to-half conversion occupies the
// special-function unit that exp and 1/x need too, enough to slow a float16 kernel by 10%.
template <typename scalar_t, int kVec, typename opmath_t>
__device__ __forceinline__ Vector<scalar_t, kVec> round_to(const opmath_t (&in)[kVec]) {
  Vector<scalar_t, kVec> out;
  if constexpr (std::is_same_v<scalar_t, c10::Half> && kVec % 2 == 0) {
#pragma unroll
    for (int i = 0; i < kVec; i += 2) {
      *reinterpret_cast<__half2*>(&out.v[i]) = __floats2half2_rn(in[i], in[i + 1]);
    }
  } else if constexpr (std::is_same_v<scalar_t, c10::BFloat16> && kVec % 2 == 0) {
#pragma unroll
    for (int i = 0; i < kVec; i += 2) {
      *reinterpret_cast<__nv_bfloat162*>(&out.v[i]) = __floats2bfloat162_rn(in[i], in[i + 1]);
    }
  } else {
#pragma unroll
    for (int i = 0; i < kVec; ++i) out.v[i] = static_cast<scalar_t>(in[i]);
  }
  return out;
}

// Block shape: kWarp threads across the columns (one vector each) and the rest across rows, so each
// warp reads kWarp consecutive vectors of one row. Narrow rows use fewer threads across.
struct Geometry {
  dim3 grid;
  dim3 block;
};

// Resident blocks per SM for a kernel.
template <typename Kernel>
int max_blocks_per_sm(Kernel kernel, int threads, size_t smem) {
  int blocks = 0;
  C10_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, smem));
  return std::max(blocks, 1);
}

// Streaming multiprocessors of the current device, asked once per device.
int multiprocessor_count() {
  static int counts[C10_COMPILE_TIME_MAX_GPUS] = {};
  const int device = c10::cuda::current_device();
  if (counts[device] == 0) {
    C10_CUDA_CHECK(cudaDeviceGetAttribute(&counts[device], cudaDevAttrMultiProcessorCount, device));
  }
  return counts[device];
}

// kWarp threads across the columns (fewer for narrow rows), the rest down the rows; one block per
// rows_per_thread rows of each column strip, but at most max_blocks blocks (the block rows then
// loop with a stride) and at most 65535 block rows (the hardware's limit).
Geometry make_geometry(int threads, int64_t rows, int64_t col_vecs, int rows_per_thread, int64_t max_blocks) {
  int across = kWarp;
  while (across / 2 >= col_vecs && across > 1) across /= 2;
  const int down = threads / across;
  const int64_t strips = (col_vecs + across - 1) / across;
  TORCH_CHECK(strips <= 2147483647, "fused_bias_gelu: x.size(-1) is too large");
  const int64_t rows_per_block = static_cast<int64_t>(down) * rows_per_thread;
  const int64_t useful = (rows + rows_per_block - 1) / rows_per_block;
  const int64_t row_blocks = std::clamp<int64_t>(std::min(useful, max_blocks / strips), 1, 65535);
  return {dim3(static_cast<unsigned>(strips), static_cast<unsigned>(row_blocks)),
          dim3(static_cast<unsigned>(across), static_cast<unsigned>(down))};
}

template <typename scalar_t, int kVec, typename opmath_t>
__device__ __forceinline__ Vector<scalar_t, kVec> forward_vector(const Vector<scalar_t, kVec>& x,
                                                                 const opmath_t (&b)[kVec]) {
  opmath_t h[kVec];
  load_opmath(x, h);
#pragma unroll
  for (int i = 0; i < kVec; ++i) h[i] = activation(h[i] + b[i]);
  return round_to<scalar_t>(h);
}

// grad_x for one vector; adds it to acc (this thread's share of grad_bias).
template <typename scalar_t, int kVec, typename opmath_t>
__device__ __forceinline__ Vector<scalar_t, kVec> backward_vector(const Vector<scalar_t, kVec>& grad_out,
                                                                  const Vector<scalar_t, kVec>& x,
                                                                  const opmath_t (&b)[kVec],
                                                                  opmath_t (&acc)[kVec]) {
  opmath_t g[kVec], h[kVec];
  load_opmath(grad_out, g);
  load_opmath(x, h);
#pragma unroll
  for (int i = 0; i < kVec; ++i) {
    g[i] *= activation_grad(h[i] + b[i]);
    acc[i] += g[i];
  }
  return round_to<scalar_t>(g);
}

template <typename scalar_t, int kVec>
__global__ void __launch_bounds__(kForwardThreads)
    forward_kernel(const scalar_t* __restrict__ x, const scalar_t* __restrict__ bias,
                   scalar_t* __restrict__ y, int64_t rows, int64_t col_vecs) {
  using opmath_t = at::opmath_type<scalar_t>;
  using V = Vector<scalar_t, kVec>;
  const int64_t cv = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (cv >= col_vecs) return;
  opmath_t b[kVec];
  load_opmath(reinterpret_cast<const V*>(bias)[cv], b);

  const V* xv = reinterpret_cast<const V*>(x) + cv;
  V* yv = reinterpret_cast<V*>(y) + cv;
  const int64_t stride = static_cast<int64_t>(gridDim.y) * blockDim.y;
  int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  for (; r + (kForwardRowsInFlight - 1) * stride < rows; r += kForwardRowsInFlight * stride) {
    V in[kForwardRowsInFlight];
#pragma unroll
    for (int u = 0; u < kForwardRowsInFlight; ++u) in[u] = xv[(r + u * stride) * col_vecs];
#pragma unroll
    for (int u = 0; u < kForwardRowsInFlight; ++u) yv[(r + u * stride) * col_vecs] = forward_vector(in[u], b);
  }
  for (; r < rows; r += stride) yv[r * col_vecs] = forward_vector(xv[r * col_vecs], b);
}

// grad_x = grad_out * activation'(x + bias); grad_bias = sum over rows of grad_x.
// partial: [gridDim.y, cols] opmath_t, one row per block row; strips_done: [gridDim.x] zeros.
template <typename scalar_t, int kVec>
__global__ void __launch_bounds__(kBackwardThreads)
    backward_kernel(const scalar_t* __restrict__ grad_out, const scalar_t* __restrict__ x,
                    const scalar_t* __restrict__ bias, scalar_t* __restrict__ grad_x,
                    scalar_t* __restrict__ grad_bias, at::opmath_type<scalar_t>* __restrict__ partial,
                    unsigned int* __restrict__ strips_done, int64_t rows, int64_t col_vecs) {
  using opmath_t = at::opmath_type<scalar_t>;
  using V = Vector<scalar_t, kVec>;
  extern __shared__ unsigned char smem_raw[];
  opmath_t* smem = reinterpret_cast<opmath_t*>(smem_raw);  // [blockDim.y][blockDim.x * kVec]
  __shared__ bool is_last_block;

  const int64_t cv = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool active = cv < col_vecs;
  opmath_t acc[kVec];
#pragma unroll
  for (int i = 0; i < kVec; ++i) acc[i] = opmath_t(0);

  if (active) {
    opmath_t b[kVec];
    load_opmath(reinterpret_cast<const V*>(bias)[cv], b);
    const V* gv = reinterpret_cast<const V*>(grad_out) + cv;
    const V* xv = reinterpret_cast<const V*>(x) + cv;
    V* dxv = reinterpret_cast<V*>(grad_x) + cv;
    const int64_t stride = static_cast<int64_t>(gridDim.y) * blockDim.y;
    int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    for (; r + (kBackwardRowsInFlight - 1) * stride < rows; r += kBackwardRowsInFlight * stride) {
      V g_in[kBackwardRowsInFlight], x_in[kBackwardRowsInFlight];
#pragma unroll
      for (int u = 0; u < kBackwardRowsInFlight; ++u) {
        g_in[u] = gv[(r + u * stride) * col_vecs];
        x_in[u] = xv[(r + u * stride) * col_vecs];
      }
#pragma unroll
      for (int u = 0; u < kBackwardRowsInFlight; ++u) {
        dxv[(r + u * stride) * col_vecs] = backward_vector(g_in[u], x_in[u], b, acc);
      }
    }
    for (; r < rows; r += stride) {
      dxv[r * col_vecs] = backward_vector(gv[r * col_vecs], xv[r * col_vecs], b, acc);
    }
  }

  // Sum the block's rows: thread (x, y) holds kVec columns; add over y in a fixed order.
  const int width = blockDim.x * kVec;
  const int64_t cols = col_vecs * kVec;
  const int64_t col0 = static_cast<int64_t>(blockIdx.x) * width;  // first column of this strip
#pragma unroll
  for (int i = 0; i < kVec; ++i) smem[threadIdx.y * width + threadIdx.x * kVec + i] = acc[i];
  __syncthreads();
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int threads = blockDim.x * blockDim.y;
  for (int c = tid; c < width; c += threads) {
    opmath_t sum = 0;
    for (int k = 0; k < static_cast<int>(blockDim.y); ++k) sum += smem[k * width + c];
    if (col0 + c < cols) partial[static_cast<int64_t>(blockIdx.y) * cols + col0 + c] = sum;
  }

  // The last block of this column strip to get here adds the strip's partial rows.
  __threadfence();
  __syncthreads();
  if (tid == 0) is_last_block = atomicAdd(&strips_done[blockIdx.x], 1u) == gridDim.y - 1;
  __syncthreads();
  if (!is_last_block) return;
  __threadfence();
  // Thread (x, y) adds partial rows y, y + blockDim.y, ... of its kVec columns, then the block adds
  // the blockDim.y sums in order of y. The order depends only on the grid, never on timing.
  opmath_t sum[kVec];
#pragma unroll
  for (int i = 0; i < kVec; ++i) sum[i] = opmath_t(0);
  const int64_t my_col = col0 + static_cast<int64_t>(threadIdx.x) * kVec;
  if (my_col < cols) {
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
    grad_bias[col0 + c] = static_cast<scalar_t>(total);
  }
}

// The widest vector (in elements) that divides the row length and every pointer's alignment.
template <typename scalar_t>
int pick_vector_width(int64_t cols, std::initializer_list<const void*> pointers) {
  int vec = kMaxVectorBytes / static_cast<int>(sizeof(scalar_t));
  auto fits = [&](int v) {
    if (cols % v != 0) return false;
    for (const void* p : pointers) {
      if (reinterpret_cast<std::uintptr_t>(p) % (v * sizeof(scalar_t)) != 0) return false;
    }
    return true;
  };
  while (vec > 1 && !fits(vec)) vec /= 2;
  return vec;
}

// Calls f(std::integral_constant<int, V>) for the vector width chosen at run time.
template <typename scalar_t, typename F>
void dispatch_vector_width(int vec, F&& f) {
  constexpr int kMax = kMaxVectorBytes / static_cast<int>(sizeof(scalar_t));
  switch (vec) {
    case 8:
      if constexpr (kMax >= 8) {
        f(std::integral_constant<int, 8>{});
        return;
      }
      break;
    case 4:
      if constexpr (kMax >= 4) {
        f(std::integral_constant<int, 4>{});
        return;
      }
      break;
    case 2:
      if constexpr (kMax >= 2) {
        f(std::integral_constant<int, 2>{});
        return;
      }
      break;
    default:
      break;
  }
  f(std::integral_constant<int, 1>{});
}

at::Tensor forward_cuda(const at::Tensor& x_in, const at::Tensor& bias_in) {
  check_inputs(x_in, bias_in);
  const c10::cuda::CUDAGuard device_guard(x_in.device());
  const at::Tensor x = x_in.contiguous();
  const at::Tensor bias = bias_in.contiguous();
  at::Tensor y = at::empty(x.sizes(), x.options());
  if (y.numel() == 0) return y;
  const int64_t cols = num_cols(x);
  const int64_t rows = x.numel() / cols;
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), kForwardName, [&] {
    const int vec =
        pick_vector_width<scalar_t>(cols, {x.const_data_ptr(), bias.const_data_ptr(), y.const_data_ptr()});
    dispatch_vector_width<scalar_t>(vec, [&](auto vec_c) {
      constexpr int kVec = decltype(vec_c)::value;
      const auto kernel = forward_kernel<scalar_t, kVec>;
      const Geometry g = make_geometry(kForwardThreads, rows, cols / kVec, kForwardRowsInFlight,
                                       std::numeric_limits<int64_t>::max());
      kernel<<<g.grid, g.block, 0, stream>>>(x.const_data_ptr<scalar_t>(), bias.const_data_ptr<scalar_t>(),
                                             y.mutable_data_ptr<scalar_t>(), rows, cols / kVec);
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    });
  });
  return y;
}

std::tuple<at::Tensor, at::Tensor> backward_cuda(const at::Tensor& grad_out_in, const at::Tensor& x_in,
                                                 const at::Tensor& bias_in) {
  check_inputs(x_in, bias_in, grad_out_in);
  const c10::cuda::CUDAGuard device_guard(x_in.device());
  const at::Tensor grad_out = grad_out_in.contiguous();
  const at::Tensor x = x_in.contiguous();
  const at::Tensor bias = bias_in.contiguous();
  at::Tensor grad_x = at::empty(x.sizes(), x.options());
  if (x.numel() == 0) return {grad_x, at::zeros(bias.sizes(), bias.options())};
  at::Tensor grad_bias = at::empty(bias.sizes(), bias.options());
  const int64_t cols = num_cols(x);
  const int64_t rows = x.numel() / cols;
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), kBackwardName, [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const int vec = pick_vector_width<scalar_t>(cols, {grad_out.const_data_ptr(), x.const_data_ptr(),
                                                       bias.const_data_ptr(), grad_x.const_data_ptr()});
    dispatch_vector_width<scalar_t>(vec, [&](auto vec_c) {
      constexpr int kVec = decltype(vec_c)::value;
      const auto kernel = backward_kernel<scalar_t, kVec>;
      const size_t smem = static_cast<size_t>(kBackwardThreads) * kVec * sizeof(opmath_t);
      // Blocks that fit on the device at once: asked once per kernel (registers and shared memory
      // are fixed at compile time), the SM count once per device.
      static const int blocks_per_sm = max_blocks_per_sm(kernel, kBackwardThreads, smem);
      const Geometry g = make_geometry(kBackwardThreads, rows, cols / kVec, kBackwardRowsInFlight,
                                       static_cast<int64_t>(multiprocessor_count()) * blocks_per_sm);
      // One buffer for the partial rows and the per-strip counters; only the counters need zeros.
      const int64_t partial_bytes = static_cast<int64_t>(g.grid.y) * cols * sizeof(opmath_t);
      at::Tensor workspace =
          at::empty({partial_bytes + static_cast<int64_t>(g.grid.x) * 4}, x.options().dtype(at::kByte));
      auto* partial = reinterpret_cast<opmath_t*>(workspace.mutable_data_ptr());
      auto* strips_done =
          reinterpret_cast<unsigned int*>(workspace.mutable_data_ptr<uint8_t>() + partial_bytes);
      C10_CUDA_CHECK(cudaMemsetAsync(strips_done, 0, g.grid.x * sizeof(unsigned int), stream));
      kernel<<<g.grid, g.block, smem, stream>>>(
          grad_out.const_data_ptr<scalar_t>(), x.const_data_ptr<scalar_t>(), bias.const_data_ptr<scalar_t>(),
          grad_x.mutable_data_ptr<scalar_t>(), grad_bias.mutable_data_ptr<scalar_t>(), partial, strips_done,
          rows, cols / kVec);
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    });
  });
  return {grad_x, grad_bias};
}

}  // namespace

}  // namespace generated_gelu::fused_bias_gelu

TORCH_LIBRARY_IMPL(generated_gelu, CUDA, m) {
  namespace op = generated_gelu::fused_bias_gelu;
  m.impl("fused_bias_gelu", &op::forward_cuda);
  m.impl("fused_bias_gelu_backward", &op::backward_cuda);
}
