#!/usr/bin/env bash
# GPU lab call 5 (results in $OUT): the candidate header's flat forward for 2-byte types, graph-timed
# against torch.compile.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=4
cd "$(dirname "$0")"
timeout 400 python3 lab5.py 2>&1 | tee "$OUT/lab5.log" | grep -v "warning #\|^ *$\|Remark\|^ *\^\|^ *detected during\|instantiation of\|required from"
