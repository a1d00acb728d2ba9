// A lab build of the family's CUDA kernels with tunable parameters (-DLAB_*); namespace renamed per variant.
#include "lab_tanh.h"
#include "lab_erf.h"
#include "lab_silu.h"
#include "lab_relu.h"
#include "lab_sigmoid.h"
#include "bias_activation/cuda.cuh"

namespace {
namespace ba = LABNS::bias_activation;
namespace act = LABNS::activations;
}
TORCH_LIBRARY(LABNS, m) {
  for (const char* op : {"tanh", "erf", "silu", "relu", "sigmoid"}) {
    m.def((std::string(op) + "_fwd(Tensor x, Tensor bias) -> Tensor").c_str());
    m.def((std::string(op) + "_bwd(Tensor g, Tensor x, Tensor bias) -> (Tensor, Tensor)").c_str());
  }
}
#define LAB_IMPL(op, Op)                                   \
  m.impl(#op "_fwd", TORCH_FN(ba::forward_cuda<act::Op>)); \
  m.impl(#op "_bwd", TORCH_FN(ba::backward_cuda<act::Op>));
TORCH_LIBRARY_IMPL(LABNS, CUDA, m) {
  LAB_IMPL(tanh, LabTanh)
  LAB_IMPL(erf, LabErf)
  LAB_IMPL(silu, LabSilu)
  LAB_IMPL(relu, LabRelu)
  LAB_IMPL(sigmoid, LabSigmoid)
}
