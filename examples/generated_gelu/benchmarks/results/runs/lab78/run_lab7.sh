#!/usr/bin/env bash
# GPU lab call 7 (results in $OUT): the forward with a float32 bias and a half x, three headers,
# against torch.compile.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=4
cd "$(dirname "$0")"
nvidia-smi > "$OUT/nvidia_smi_lab_7.txt"
timeout 200 python3 lab7.py 2>&1 | tee "$OUT/lab7.log" | grep -v "warning #\|^ *$\|Remark\|^ *\^\|^ *detected during\|instantiation of\|required from"
