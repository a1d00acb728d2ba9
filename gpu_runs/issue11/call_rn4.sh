#!/usr/bin/env bash
# Lab RN4, one H200: the row-norm projects (rms, layer, gemma) built with CUDA, their tests (in
# parallel), then lab_rn.py (ours, eager, Liger-Kernel).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=16
B=$(cd "$(dirname "$0")" && pwd)
N=${RUN:-rn4}
nvidia-smi > "$OUT/nvidia_smi_$N.txt" 2>&1
python3 -m pip install --no-deps --no-index "$B"/liger_kernel-*.whl > /dev/null 2>&1; echo "pip exit $?"
for p in rms layer gemma; do
  (cd "$B/$p" && FORCE_CUDA=1 timeout 240 python3 setup.py build_ext --inplace > "/tmp/build_$p.log" 2>&1; rc=$?; echo "build $p exit $rc"; [ $rc = 0 ] || { cp "/tmp/build_$p.log" "$OUT/"; grep -E "error" "/tmp/build_$p.log" | head -5; }) &
done
wait
for p in rms layer gemma; do
  (cd "$B/$p" && timeout 150 python3 -m pytest -q -x -p no:cacheprovider tests > "$OUT/tests_$p.log" 2>&1; echo "tests $p exit $?"; tail -n 3 "$OUT/tests_$p.log") &
done
wait
(cd "$B" && LAB_JSON=lab_$N.json timeout 200 python3 lab_rn.py) > "$OUT/lab_$N.log" 2>&1; echo "lab exit $?"
grep -v -E "Warning|warn|Backend impl" "$OUT/lab_$N.log" | tail -n 25
