// The CUDA kernels of the operator rms_norm:
// the row normalization family's (csrc/row_norm/cuda.cuh) on this operator's norm,
// rms_norm.h.
//
// An operator that needs a kernel unlike the family's registers its own here instead, in a
// TORCH_LIBRARY_IMPL(<namespace>, CUDA, m) block, and can use the helpers of core/cuda.cuh
// (16-byte vectors, the vector width, the device's capacity).
#include "rms_norm.h"

#include "row_norm/cuda.cuh"

ROW_NORM_CUDA_KERNELS(generated_rmsnorm, RmsNorm)
