#!/usr/bin/env bash
# GPU lab call 9 (results in $OUT): the few-rows backward path at up to 64 rows, on and off.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=4
cd "$(dirname "$0")"
nvidia-smi > "$OUT/nvidia_smi_lab_9.txt"
timeout 300 python3 lab9.py 2>&1 | tee "$OUT/lab9.log" | grep -v "warning #\|^ *$\|Remark\|^ *\^\|^ *detected during\|instantiation of\|required from"
