#!/usr/bin/env bash
# compile_sm80.sh PROJECT OUT: g/compile.sh for sm_80 (SASS) and compute_90 (PTX): the default arch list's 8.0 and
# the PTX of its 9.0+PTX; ptxas's report (of the sm_80 kernels) in OUT.ptxas
set -u
P=$1; O=$2
T=/tmp/venv/lib/python3.11/site-packages/torch/include
cu=$(ls $P/csrc/*_cuda.cu)
nvcc -c "$cu" -o "$O.o" -I"$P/csrc" -I/tmp/nv/inc -I$T -I$T/torch/csrc/api/include -I/root/.pyenv/versions/3.11.7/include/python3.11 \
  -D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__ -D__CUDA_NO_HALF2_OPERATORS__ \
  --expt-relaxed-constexpr --compiler-options '-fPIC' -std=c++20 -DTORCH_API_INCLUDE_EXTENSION_H -DTORCH_EXTENSION_NAME=_C \
  -D_GLIBCXX_USE_CXX11_ABI=1 -O3 -lineinfo --threads=2 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90 -Xptxas -v > "$O.ptxas" 2>&1
echo "exit $? $(date +%T)"
