// A lab build of the family's CUDA kernels with tunable parameters (-DLAB_*); namespace renamed per variant.
#include "lab_tanh.h"
#include "lab_erf.h"
#include "lab_silu.h"
#include "bias_activation/cuda.cuh"

#define STR2(x) #x
#define STR(x) STR2(x)
namespace {
namespace ba = LABNS::bias_activation;
namespace act = LABNS::activations;
}
TORCH_LIBRARY(LABNS, m) {
  for (const char* op : {"tanh", "erf", "silu"}) {
    m.def((std::string(op) + "_fwd(Tensor x, Tensor bias) -> Tensor").c_str());
    m.def((std::string(op) + "_bwd(Tensor g, Tensor x, Tensor bias) -> (Tensor, Tensor)").c_str());
  }
}
TORCH_LIBRARY_IMPL(LABNS, CUDA, m) {
  m.impl("tanh_fwd", TORCH_FN(ba::forward_cuda<act::LabTanh>));
  m.impl("tanh_bwd", TORCH_FN(ba::backward_cuda<act::LabTanh>));
  m.impl("erf_fwd", TORCH_FN(ba::forward_cuda<act::LabErf>));
  m.impl("erf_bwd", TORCH_FN(ba::backward_cuda<act::LabErf>));
  m.impl("silu_fwd", TORCH_FN(ba::forward_cuda<act::LabSilu>));
  m.impl("silu_bwd", TORCH_FN(ba::backward_cuda<act::LabSilu>));
}
