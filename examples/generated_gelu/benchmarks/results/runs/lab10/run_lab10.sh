#!/usr/bin/env bash
# GPU lab call 10 (results in $OUT): the folded-column sum across the grid, and the few-rows path.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=4
cd "$(dirname "$0")"
nvidia-smi > "$OUT/nvidia_smi_lab_10.txt"
timeout 300 python3 lab10.py 2>&1 | tee "$OUT/lab10.log" | grep -v "warning #\|^ *$\|Remark\|^ *\^\|^ *detected during\|instantiation of\|required from"
