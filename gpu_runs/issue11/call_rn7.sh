#!/usr/bin/env bash
# Lab RN7, one H200: layer (LayerNorm forward may take two vectors a thread) built with CUDA, its
# tests, then (after them) lab_rn.py on LayerNorm (ours, Liger-Kernel).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=16
B=$(cd "$(dirname "$0")" && pwd)
nvidia-smi > "$OUT/nvidia_smi_rn7.txt" 2>&1
python3 -m pip install --no-deps --no-index "$B"/liger_kernel-*.whl > /dev/null 2>&1; echo "pip exit $?"
(cd "$B/layer" && FORCE_CUDA=1 timeout 200 python3 setup.py build_ext --inplace > /tmp/build_layer.log 2>&1; rc=$?; echo "build layer exit $rc"; [ $rc = 0 ] || { cp /tmp/build_layer.log "$OUT/"; grep error /tmp/build_layer.log | head; })
[ -n "${SKIP_TESTS:-}" ] || (cd "$B/layer" && timeout 120 python3 -m pytest -q -x -p no:cacheprovider tests > "$OUT/tests_layer.log" 2>&1; echo "tests layer exit $?"; tail -n 3 "$OUT/tests_layer.log")
(cd "$B" && LAB_NORMS=layer LAB_IMPLS=ours,liger LAB_DTYPES=bfloat16,float16,float32 LAB_JSON=lab_rn7.json timeout 150 python3 lab_rn.py) > "$OUT/lab_rn7.log" 2>&1; echo "lab exit $?"
grep -v -E "Warning|warn|Backend impl" "$OUT/lab_rn7.log" | tail -n 20
