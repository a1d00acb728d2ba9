#!/usr/bin/env bash
# compile.sh PROJECT OUT [GENCODE...]: the project's CUDA source for sm_90a (or the -gencode options
# given, e.g. calls G2's sm_80 compile: -gencode arch=compute_80,code=sm_80
# -gencode arch=compute_90,code=compute_90), ptxas's report in OUT.ptxas
set -u
P=$1; O=$2; shift 2
gencode=("$@"); [ ${#gencode[@]} -gt 0 ] || gencode=(-gencode arch=compute_90a,code=sm_90a)
T=/tmp/venv/lib/python3.11/site-packages/torch/include
cu=$(ls $P/csrc/*_cuda.cu)
nvcc -c "$cu" -o "$O.o" -I"$P/csrc" -I/tmp/nv/inc -I$T -I$T/torch/csrc/api/include -I/root/.pyenv/versions/3.11.7/include/python3.11 \
  -D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__ -D__CUDA_NO_HALF2_OPERATORS__ \
  --expt-relaxed-constexpr --compiler-options '-fPIC' -std=c++20 -DTORCH_API_INCLUDE_EXTENSION_H -DTORCH_EXTENSION_NAME=_C \
  -D_GLIBCXX_USE_CXX11_ABI=1 -O3 -lineinfo --threads=2 "${gencode[@]}" -Xptxas -v > "$O.ptxas" 2>&1
echo "exit $? $(date +%T)"
