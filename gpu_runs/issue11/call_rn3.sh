#!/usr/bin/env bash
# Lab RN3, one H200: as RN2 with __launch_bounds__(512, 2) on the forward kernel (at most 64
# registers a thread); builds and lab_rn.py only, no tests.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a MAX_JOBS=16
B=$(cd "$(dirname "$0")" && pwd)
nvidia-smi > "$OUT/nvidia_smi_rn3.txt" 2>&1
python3 -m pip install --no-deps --no-index "$B"/liger_kernel-*.whl > "$OUT/pip.log" 2>&1; echo "pip exit $?"
for p in rms layer; do
  (cd "$B/$p" && FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$OUT/build_$p.log" 2>&1; echo "build $p exit $?") &
done
wait
(cd "$B" && timeout 170 python3 lab_rn.py) > "$OUT/lab_rn3.log" 2>&1; echo "lab exit $?"
grep -v Warning "$OUT/lab_rn3.log" | tail -n 25
