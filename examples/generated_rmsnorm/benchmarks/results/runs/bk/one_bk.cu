#include "layer_norm.h"
#include "rms_norm.h"
#include "row_norm/cuda.cuh"
namespace generated_rmsnorm::row_norm::cuda {
template __global__ void backward_kernel<generated_rmsnorm::norms::LayerNorm, c10::BFloat16, c10::BFloat16, 8, 4, true, 2, false, true, false>(
    const c10::BFloat16*, const c10::BFloat16*, const c10::BFloat16*, const c10::BFloat16*, c10::BFloat16*, float*,
    c10::BFloat16*, c10::BFloat16*, int64_t, int64_t, int, int, int, int, float, float);
template __global__ void backward_kernel<generated_rmsnorm::norms::RmsNorm, c10::BFloat16, c10::BFloat16, 8, 4, true, 3, false, true, false>(
    const c10::BFloat16*, const c10::BFloat16*, const c10::BFloat16*, const c10::BFloat16*, c10::BFloat16*, float*,
    c10::BFloat16*, c10::BFloat16*, int64_t, int64_t, int, int, int, int, float, float);
}
