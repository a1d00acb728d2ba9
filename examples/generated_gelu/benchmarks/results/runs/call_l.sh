#!/usr/bin/env bash
# GPU call L (and N: CALL=n), one H200, right after call K (M): relu's, silu's and sigmoid's projects
# built, then each one's tests and benchmark in turn. Results in res_$CALL (l when unset).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
B=$(cd "$(dirname "$0")" && pwd)
C=${CALL:-l}
R=$B/res_$C; mkdir -p "$R"
nvidia-smi > "$R/nvidia_smi_h200_$C.txt" 2>&1
for a in relu silu sigmoid; do
  (cd "$B/$a" && FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$a.log" 2>&1; echo "build $a exit $?") &
done
wait
for a in relu silu sigmoid; do
  (cd "$B/$a" && timeout 170 python3 benchmarks/gpu_suite.py --skip-build --skip-sanitizer --skip-jit --out "$R/activations/$a") > "$R/suite_$a.log" 2>&1
  echo "$a suite exit $?"
done
tar czf "$OUT/results_$C.tgz" -C "$B" "res_$C"
tail -n 2 "$R"/suite_*.log
