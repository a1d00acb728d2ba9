// The CUDA kernels of the operator fused_bias_gelu:
// the bias + activation family's (csrc/bias_activation/cuda.cuh) on this operator's activation,
// fused_bias_gelu.h.
//
// An operator that needs a kernel unlike the family's registers its own here instead, in a
// TORCH_LIBRARY_IMPL(<namespace>, CUDA, m) block, and can use the helpers of core/cuda.cuh
// (16-byte vectors, the vector width, the device's capacity).
#include "fused_bias_gelu.h"

#include "bias_activation/cuda.cuh"

BIAS_ACTIVATION_CUDA_KERNELS(generated_gelu, FusedBiasGelu)
