#!/usr/bin/env bash
# GPU call L, one H200, right after call K: relu's, silu's and sigmoid's projects built at the
# final sources, then each one's tests and benchmark in turn.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
B=$(cd "$(dirname "$0")" && pwd)
R=$B/res_l; mkdir -p "$R"
nvidia-smi > "$R/nvidia_smi_h200_l.txt" 2>&1
for a in relu silu sigmoid; do
  (cd "$B/$a" && FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$a.log" 2>&1; echo "build $a exit $?") &
done
wait
for a in relu silu sigmoid; do
  (cd "$B/$a" && timeout 170 python3 benchmarks/gpu_suite.py --skip-build --skip-sanitizer --skip-jit --out "$R/activations/$a") > "$R/suite_$a.log" 2>&1
  echo "$a suite exit $?"
done
tar czf "$OUT/results_l.tgz" -C "$B" res_l
tail -n 2 "$R"/suite_*.log
