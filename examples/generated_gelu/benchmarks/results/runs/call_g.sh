#!/usr/bin/env bash
# GPU call G, one H200: after the flat float32/float64 forward, the backward kernel's launch bounds
# per dtype and the benchmark's device time over graphs of at least 8 calls: the example's GPU suite
# (build, tests, sanitizers, benchmark, JIT rebuild), then the exact-erf gelu project's tests and
# benchmark.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
B=$(cd "$(dirname "$0")" && pwd)
R=$B/res_g; mkdir -p "$R"
nvidia-smi > "$R/nvidia_smi_h200_g.txt" 2>&1
(cd "$B/gelu" && FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_gelu.log" 2>&1; echo "build gelu exit $?") &
(cd "$B/example" && timeout 330 python3 benchmarks/gpu_suite.py --out "$R/example") > "$R/example_suite.log" 2>&1
echo "example suite exit $?"
wait
(cd "$B/gelu" && timeout 200 python3 benchmarks/gpu_suite.py --skip-build --skip-sanitizer --skip-jit --out "$R/activations/gelu") > "$R/suite_gelu.log" 2>&1
echo "gelu suite exit $?"
tar czf "$OUT/results_g.tgz" -C "$B" res_g
tail -n 3 "$R/example_suite.log" "$R/suite_gelu.log"
