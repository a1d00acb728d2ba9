#!/usr/bin/env bash
# GPU lab call 8 (results in $OUT): lab8.py, then call P (call_l.sh with CALL=p) on the same H200.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=4
D=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/lab8"
(cd "$D" && nvidia-smi > "$OUT/lab8/nvidia_smi_lab_8.txt" && OUT="$OUT/lab8" timeout 180 python3 lab8.py 2>&1 | tee "$OUT/lab8/lab8.log" | grep -v "warning #\|^ *$\|Remark\|^ *\^\|^ *detected during\|instantiation of\|required from" | tail -30)
CALL=p bash "$D/../../.gpu_bundle/call_l.sh"
