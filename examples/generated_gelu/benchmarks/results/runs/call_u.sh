#!/usr/bin/env bash
# GPU call U, on two H200s: the example's GPU suite without sanitizers, benchmark or just-in-time
# build, with both GPUs visible (the second-device tests run). Results in res_u/two_gpus.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
B=$(cd "$(dirname "$0")" && pwd)
R=$B/res_u; mkdir -p "$R"
nvidia-smi > "$R/nvidia_smi_2xh200_u.txt" 2>&1
(cd "$B/example" && timeout 400 python3 benchmarks/gpu_suite.py --skip-sanitizer --skip-benchmark --skip-jit \
    --out "$R/two_gpus") > "$R/two_gpus_suite.log" 2>&1
echo "two-GPU suite exit $?"
tar czf "$OUT/results_u.tgz" -C "$B" res_u
tail -n 5 "$R/two_gpus/tests.log"
