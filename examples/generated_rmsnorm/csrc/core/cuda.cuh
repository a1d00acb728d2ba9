// What every operator family's CUDA kernels share: 16-byte vectors of any dtype, their conversion to
// and from the float math type, the choice of the vector width at run time, and the device's
// capacity for a kernel (asked once per kernel and device).
#pragma once

#include <ATen/OpMathType.h>
#include <ATen/cuda/CUDAContextLight.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAFunctions.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <type_traits>

#include "core/common.h"

namespace generated_rmsnorm::core {

constexpr int kMaxVectorBytes = 16;  // widest load and store a thread can issue
constexpr int kWarp = 32;

template <typename T, int kVec>
struct alignas(sizeof(T) * kVec) Vector {
  T v[kVec];
};

// Loads kVec elements as opmath_t, one at a time.
template <typename opmath_t, typename scalar_t, int kVec>
__device__ __forceinline__ void load_opmath(const Vector<scalar_t, kVec>& in, opmath_t (&out)[kVec]) {
#pragma unroll
  for (int i = 0; i < kVec; ++i) out[i] = static_cast<opmath_t>(in.v[i]);
}

// The same, bfloat16 a 32-bit word (two elements) at a time: a bfloat16 is the high half of a float,
// so a word gives its two floats with one shift and one mask (exact, NaN included). One at a time,
// the compiler first moved each odd element into a register of its own (PRMT). Together with the
// forward's 16-byte bias load (bias_activation/cuda.cuh), this took the bfloat16 flat forward from 40
// registers a thread to 32 (nvcc 13.0, sm_90a; lab 6 of the example's benchmarks/results/runs/).
template <typename opmath_t, typename scalar_t, int kVec>
__device__ __forceinline__ void load_opmath_by_words(const Vector<scalar_t, kVec>& in,
                                                     opmath_t (&out)[kVec]) {
  if constexpr (std::is_same_v<scalar_t, c10::BFloat16> && std::is_same_v<opmath_t, float> && kVec % 2 == 0) {
#pragma unroll
    for (int i = 0; i < kVec; i += 2) {
      uint32_t word;
      memcpy(&word, &in.v[i], sizeof(word));
      out[i] = __uint_as_float(word << 16);
      out[i + 1] = __uint_as_float(word & 0xffff0000u);
    }
  } else {
    load_opmath(in, out);
  }
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

// True when every pointer is aligned to a vector of `vec` elements of scalar_t.
template <typename scalar_t>
bool aligned_to(int vec, std::initializer_list<const void*> pointers) {
  for (const void* p : pointers) {
    if (reinterpret_cast<std::uintptr_t>(p) % (vec * sizeof(scalar_t)) != 0) return false;
  }
  return true;
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

// Resident blocks per multiprocessor of a kernel on the current device. Registers and shared memory
// are fixed at compile time, devices may differ: `cache` holds one count per device (one array per
// kernel: a static in the caller). Threads that race compute the same value.
template <typename Kernel>
int max_blocks_per_sm(Kernel kernel, int threads, size_t smem, std::atomic<int>* cache) {
  const int device = c10::cuda::current_device();
  int blocks = cache[device].load(std::memory_order_relaxed);
  if (blocks == 0) {
    C10_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, smem));
    blocks = std::max(blocks, 1);
    cache[device].store(blocks, std::memory_order_relaxed);
  }
  return blocks;
}

using OccupancyCache = std::array<std::atomic<int>, C10_COMPILE_TIME_MAX_GPUS>;

// Multiprocessors of the current device (PyTorch's cached device properties).
inline int multiprocessor_count() {
  return at::cuda::getCurrentDeviceProperties()->multiProcessorCount;
}

}  // namespace generated_rmsnorm::core
