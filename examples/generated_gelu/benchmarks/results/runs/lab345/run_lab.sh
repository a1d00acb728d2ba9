#!/usr/bin/env bash
# GPU lab call 3: build the variants of lab.py and time them (results in $OUT).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=4
nvidia-smi > "$OUT/nvidia_smi.txt" 2>&1
cd "$(dirname "$0")"
timeout 540 python3 lab.py 2>&1 | tee "$OUT/lab.log" | grep -v "warning #\|^ *$\|Remark\|^ *\^\|^ *detected during\|instantiation of\|required from"
