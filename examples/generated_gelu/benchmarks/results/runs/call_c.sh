#!/usr/bin/env bash
# GPU call C, on two H200s, after sigmoid_ lost a subtraction per element (csrc/core/math.h): the
# example's full GPU suite on GPU 0; silu's and sigmoid's tests and benchmarks on GPU 1.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++
B=$(cd "$(dirname "$0")" && pwd)
R=$B/res; mkdir -p "$R"
nvidia-smi > "$R/nvidia_smi_c.txt" 2>&1
for p in silu sigmoid; do
  (cd "$B/$p" && FORCE_CUDA=1 TORCH_CUDA_ARCH_LIST=9.0a timeout 200 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $?" >> "$R/exit_codes_c.txt") &
done
wait  # the example's build, timed by its suite, runs alone
(cd "$B/example" && CUDA_VISIBLE_DEVICES=0 timeout 480 python3 benchmarks/gpu_suite.py --out "$R/example") > "$R/example_suite.log" 2>&1 &
EXAMPLE=$!
sleep 60
for a in silu sigmoid; do
  (cd "$B/$a" && CUDA_VISIBLE_DEVICES=1 timeout 230 python3 benchmarks/gpu_suite.py --skip-build --skip-sanitizer --skip-jit \
      --out "$R/activations/$a") > "$R/suite_$a.log" 2>&1
  echo "suite $a exit $?" >> "$R/exit_codes_c.txt"
done
wait $EXAMPLE; echo "example suite exit $?" >> "$R/exit_codes_c.txt"
tar czf "$OUT/results_c.tgz" -C "$B" res
cat "$R/exit_codes_c.txt"; tail -3 "$R/example_suite.log" "$R/suite_silu.log" "$R/suite_sigmoid.log"
