#!/usr/bin/env bash
# Diagnosis: the flat forward's vectors per thread and block size (float32), and a profile of the
# example's autograd forward+backward.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=4
cd "$(dirname "$0")"
(cd ../.gpu_bundle/example && FORCE_CUDA=1 python3 setup.py build_ext --inplace > "$OUT/build_example.log" 2>&1; echo "build example exit $?") &
python3 lab.py 2>&1 | tee "$OUT/lab.log" | grep -v "warning #\|^ *$\|Remark\|^ *\^\|^ *detected during\|instantiation of\|required from"
wait
PYTHONPATH=../.gpu_bundle/example/src python3 prof.py 2>&1 | tee "$OUT/prof.log"
