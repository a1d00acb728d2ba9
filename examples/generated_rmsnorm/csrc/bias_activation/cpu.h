// The bias + activation family's CPU loops: vectorized with ATen's CPU vectors (the activation's
// formula runs on whole vectors of floats or doubles; on x86-64 the build compiles them for AVX2 with
// FMA where the build machine has it, see build_config.py), parallel with at::parallel_for over tiles
// of at most kColumnBlock elements of a row, so that a few very wide rows keep every thread busy
// (OpenMP: the build adds -fopenmp where the compiler has it), float math for float16 and bfloat16.
#pragma once

#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/Parallel.h>
#include <ATen/ops/empty.h>

#include <algorithm>
#include <type_traits>

#include "core/common.h"
#include "core/cpu_vector.h"

namespace generated_rmsnorm::bias_activation::cpu {

// Elements per parallel task: enough that a task outweighs its scheduling cost.
constexpr int64_t kGrainElements = 32768;
// A row is cut into tiles of this many elements (a multiple of every vector step); a tile's
// partial sums of grad_bias stay in the L1 cache while its rows stream past.
constexpr int64_t kColumnBlock = 4096;
// grad_bias is summed over fixed chunks of rows (at most kBiasChunks, each of at least
// kRowsPerChunk rows), then over the chunks in order: the result depends on the shape only, never
// on the number of threads.
constexpr int64_t kBiasChunks = 64;
constexpr int64_t kRowsPerChunk = 16;

// The tiles of a [rows, cols] tensor: each row cut into `per_row` blocks of at most kColumnBlock.
struct Tiles {
  int64_t cols, per_row, width;  // width: the elements of a full tile

  explicit Tiles(int64_t cols_)
      : cols(cols_),
        per_row((cols_ + kColumnBlock - 1) / kColumnBlock),
        width(std::min(cols_, kColumnBlock)) {}

  // Calls f(row, first column, column count) for the tiles [begin, end) in row-major order.
  template <typename F>
  void for_each(int64_t begin, int64_t end, F&& f) const {
    int64_t row = begin / per_row, block = begin % per_row;
    for (int64_t tile = begin; tile < end; ++tile) {
      const int64_t first = block * kColumnBlock;
      f(row, first, std::min(kColumnBlock, cols - first));
      if (++block == per_row) {
        block = 0;
        ++row;
      }
    }
  }

  // Tiles per parallel task.
  int64_t grain() const { return std::max<int64_t>(1, kGrainElements / width); }
};

// bias as opmath_t: the caller's memory where it already is, else converted once into `storage`.
template <typename opmath_t, typename param_t>
const opmath_t* bias_as_opmath(const at::Tensor& bias, at::Tensor& storage) {
  if constexpr (std::is_same_v<param_t, opmath_t>) {
    return bias.const_data_ptr<opmath_t>();
  } else {
    storage = bias.to(c10::CppTypeToScalarType<opmath_t>::value);
    return storage.const_data_ptr<opmath_t>();
  }
}

template <template <typename> class Op, typename scalar_t, typename param_t>
void forward_loop(const at::Tensor& x_t, const at::Tensor& bias_t, const at::Tensor& y_t) {
  using L = core::Lanes<scalar_t>;
  using V = typename L::V;
  using opmath_t = typename L::opmath_t;
  const int64_t cols = x_t.size(-1);
  const int64_t rows = x_t.numel() / cols;
  at::Tensor storage;
  const opmath_t* bias = bias_as_opmath<opmath_t, param_t>(bias_t, storage);
  const scalar_t* x = x_t.const_data_ptr<scalar_t>();
  scalar_t* y = y_t.mutable_data_ptr<scalar_t>();
  const Tiles tiles(cols);
  at::parallel_for(0, rows * tiles.per_row, tiles.grain(), [&](int64_t begin, int64_t end) {
    tiles.for_each(begin, end, [&](int64_t row, int64_t first, int64_t width) {
      const scalar_t* x_row = x + row * cols;
      scalar_t* y_row = y + row * cols;
      for (int64_t c = first; c < first + width; c += L::kStep) {
        const int64_t count = std::min<int64_t>(L::kStep, first + width - c);
        V h0, h1;
        L::load(x_row + c, count, h0, h1);
        h0 = Op<V>::forward(h0 + V::loadu(bias + c, std::min<int64_t>(V::size(), count)));
        if constexpr (L::kConverted) {
          const int64_t rest = count - V::size();
          if (rest > 0) h1 = Op<V>::forward(h1 + V::loadu(bias + c + V::size(), rest));
        }
        L::store(y_row + c, count, h0, h1);
      }
    });
  });
}

template <template <typename> class Op, typename scalar_t, typename param_t>
void backward_loop(const at::Tensor& grad_out_t, const at::Tensor& x_t, const at::Tensor& bias_t,
                   const at::Tensor& grad_x_t, const at::Tensor& grad_bias_t) {
  using L = core::Lanes<scalar_t>;
  using V = typename L::V;
  using opmath_t = typename L::opmath_t;
  const int64_t cols = x_t.size(-1);
  const int64_t rows = x_t.numel() / cols;
  at::Tensor storage;
  const opmath_t* bias = bias_as_opmath<opmath_t, param_t>(bias_t, storage);
  const scalar_t* grad_out = grad_out_t.const_data_ptr<scalar_t>();
  const scalar_t* x = x_t.const_data_ptr<scalar_t>();
  scalar_t* grad_x = grad_x_t.mutable_data_ptr<scalar_t>();

  // One row of partial sums per chunk of rows, in PyTorch's allocator. A task takes tiles of one
  // chunk: the chunk's rows over one column block, the first row written, the others added.
  const int64_t most_chunks = std::clamp<int64_t>(rows / kRowsPerChunk, 1, kBiasChunks);
  const int64_t rows_per_chunk = (rows + most_chunks - 1) / most_chunks;
  const int64_t chunks = (rows + rows_per_chunk - 1) / rows_per_chunk;  // none of them empty
  at::Tensor partial_t =
      at::empty({chunks, cols}, x_t.options().dtype(c10::CppTypeToScalarType<opmath_t>::value));
  opmath_t* partial = partial_t.mutable_data_ptr<opmath_t>();
  const Tiles tiles(cols);
  const int64_t grain = std::max<int64_t>(1, tiles.grain() / rows_per_chunk);

  at::parallel_for(0, chunks * tiles.per_row, grain, [&](int64_t begin, int64_t end) {
    tiles.for_each(begin, end, [&](int64_t chunk, int64_t first, int64_t width) {
      opmath_t* acc = partial + chunk * cols;
      const int64_t row_begin = chunk * rows_per_chunk;
      const int64_t row_end = std::min(rows, row_begin + rows_per_chunk);
      for (int64_t r = row_begin; r < row_end; ++r) {
        const int64_t offset = r * cols;
        // acc + g, or g alone for the chunk's first row (acc is not initialized)
        const auto add = [&](int64_t c, int64_t n, const V& g) {
          (r == row_begin ? g : V::loadu(acc + c, n) + g).store(acc + c, n);
        };
        for (int64_t c = first; c < first + width; c += L::kStep) {
          const int64_t count = std::min<int64_t>(L::kStep, first + width - c);
          V g0, g1, h0, h1;
          L::load(grad_out + offset + c, count, g0, g1);
          L::load(x + offset + c, count, h0, h1);
          const int64_t lead = std::min<int64_t>(V::size(), count);
          g0 = g0 * Op<V>::backward(h0 + V::loadu(bias + c, lead));
          add(c, lead, g0);
          if constexpr (L::kConverted) {
            const int64_t rest = count - V::size();
            if (rest > 0) {
              g1 = g1 * Op<V>::backward(h1 + V::loadu(bias + c + V::size(), rest));
              add(c + V::size(), rest, g1);
            }
          }
          L::store(grad_x + offset + c, count, g0, g1);
        }
      }
    });
  });

  // The chunks' sums, added in the chunks' order.
  at::Tensor sums_t = chunks == 1 ? partial_t[0] : at::empty({cols}, partial_t.options());
  if (chunks > 1) {
    opmath_t* sums = sums_t.mutable_data_ptr<opmath_t>();
    at::parallel_for(0, cols, kGrainElements, [&](int64_t begin, int64_t end) {
      for (int64_t c = begin; c < end; c += V::size()) {
        const int64_t count = std::min<int64_t>(V::size(), end - c);
        V total = V::loadu(partial + c, count);
        for (int64_t chunk = 1; chunk < chunks; ++chunk)
          total = total + V::loadu(partial + chunk * cols + c, count);
        total.store(sums + c, count);
      }
    });
  }
  grad_bias_t.copy_(sums_t);  // rounds to the bias's dtype
}

template <template <typename> class Op>
void forward(const at::Tensor& x, const at::Tensor& bias, const at::Tensor& y) {
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), Op<float>::kName, [&] {
    core::dispatch_parameter_type<scalar_t>(
        bias.scalar_type(), [&](auto param) { forward_loop<Op, scalar_t, decltype(param)>(x, bias, y); });
  });
}

template <template <typename> class Op>
void backward(const at::Tensor& grad_out, const at::Tensor& x, const at::Tensor& bias,
              const at::Tensor& grad_x, const at::Tensor& grad_bias) {
  AT_DISPATCH_FLOATING_TYPES_AND2(at::kHalf, at::kBFloat16, x.scalar_type(), Op<float>::kName, [&] {
    core::dispatch_parameter_type<scalar_t>(bias.scalar_type(), [&](auto param) {
      backward_loop<Op, scalar_t, decltype(param)>(grad_out, x, bias, grad_x, grad_bias);
    });
  });
}

}  // namespace generated_rmsnorm::bias_activation::cpu
