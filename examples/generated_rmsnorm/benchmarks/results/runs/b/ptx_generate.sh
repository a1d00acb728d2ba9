#!/bin/bash
# ptxgen.sh PROJ OP: PTX of OP_cuda.cu for sm_90a into PROJ/OP.ptx
TI=$(python3 -c "import torch.utils.cpp_extension as c;print(' '.join('-I'+p for p in c.include_paths()))")
nvcc -std=c++17 -O3 -arch=sm_90a -ptx -I/tmp/stubs $TI -I$1/csrc -DTORCH_EXTENSION_NAME=x -D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__ -D__CUDA_NO_HALF2_OPERATORS__ --expt-relaxed-constexpr $1/csrc/${2}_cuda.cu -o $1/$2.ptx
