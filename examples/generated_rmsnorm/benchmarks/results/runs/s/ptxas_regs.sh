#!/bin/bash
# regs.sh PROJECT OP OUT: compile PROJECT/csrc/OP_cuda.cu for sm_90a with ptxas -v into OUT
P=$1; OP=$2; OUT=$3
TI=$(python3 -c "import torch.utils.cpp_extension as c;print(' '.join('-I'+p for p in c.include_paths()))")
nvcc -std=c++17 -O3 -gencode arch=compute_90a,code=sm_90a -Xptxas -v -I/tmp/stubs $TI -I$P/csrc \
  -DTORCH_EXTENSION_NAME=x -D__CUDA_NO_HALF_OPERATORS__ -D__CUDA_NO_HALF_CONVERSIONS__ -D__CUDA_NO_BFLOAT16_CONVERSIONS__ -D__CUDA_NO_HALF2_OPERATORS__ --expt-relaxed-constexpr \
  -c $P/csrc/${OP}_cuda.cu -o /tmp/q/${OP}.o > $OUT 2>&1
echo "exit $?"; grep -c "error" $OUT
