#!/usr/bin/env bash
# Lab RN2, one H200: the row-norm projects (rms, layer, gemma) built with CUDA, their tests, then lab_rn.py.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=16
B=$(cd "$(dirname "$0")" && pwd)
nvidia-smi > "$OUT/nvidia_smi_rn2.txt" 2>&1
python3 -m pip install --no-deps --no-index "$B"/liger_kernel-*.whl > "$OUT/pip.log" 2>&1; echo "pip exit $?"
for p in rms layer; do
  (cd "$B/$p" && FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$OUT/build_$p.log" 2>&1; echo "build $p exit $?") &
done
wait
for p in rms layer; do
  (cd "$B/$p" && timeout 120 python3 -m pytest -q -x -p no:cacheprovider tests > "$OUT/tests_$p.log" 2>&1; echo "tests $p exit $?"; tail -n 2 "$OUT/tests_$p.log")
done
(cd "$B" && timeout 170 python3 lab_rn.py) > "$OUT/lab_rn2.log" 2>&1; echo "lab exit $?"
grep -v Warning "$OUT/lab_rn2.log" | tail -n 25
