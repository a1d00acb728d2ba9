#!/usr/bin/env bash
# Lab RN5, one H200: three candidates (A, B, C: see README) of rms and layer built with CUDA, then
# lab_rn.py on ours alone for each. No tests (RN4 ran them on the first candidate).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=16
B=$(cd "$(dirname "$0")" && pwd)
nvidia-smi > "$OUT/nvidia_smi_rn5.txt" 2>&1
for v in A B C; do for p in rms layer; do
  (cd "$B/${p}_$v" && FORCE_CUDA=1 timeout 240 python3 setup.py build_ext --inplace > "/tmp/build_${p}_$v.log" 2>&1; rc=$?; echo "build ${p}_$v exit $rc"; [ $rc = 0 ] || grep -E "error" "/tmp/build_${p}_$v.log" | head -5) &
done; done
wait
for v in A B C; do
  (cd "$B" && LAB_VARIANT=_$v LAB_IMPLS=ours LAB_JSON=lab_rn5_$v.json timeout 100 python3 lab_rn.py) > "$OUT/lab_rn5_$v.log" 2>&1; echo "lab $v exit $?"
  grep -v -E "Warning|warn|Backend impl" "$OUT/lab_rn5_$v.log" | sed -e 's/ours //' | cut -c1-100
done
