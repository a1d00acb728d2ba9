#!/usr/bin/env bash
# GPU lab call 11 (results in $OUT): the criterion for the few-rows backward.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=4
cd "$(dirname "$0")"
nvidia-smi > "$OUT/nvidia_smi_lab_11.txt"
timeout 300 python3 lab11.py 2>&1 | tee "$OUT/lab11.log" | grep -v "warning #\|^ *$\|Remark\|^ *\^\|^ *detected during\|instantiation of\|required from"
