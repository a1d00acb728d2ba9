#!/usr/bin/env bash
# GPU call R, one H200: the example built, then its benchmark at the host-bound shapes five times in
# a row (results in $OUT/rep_*.json): how much the per-call times move from one run to the next.
# First the test of a bias over 256 KiB as revised after calls O to Q, and the determinism tests.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
B=$(cd "$(dirname "$0")/../../.gpu_bundle/example" && pwd)
nvidia-smi > "$OUT/nvidia_smi_h200_r.txt" 2>&1
cd "$B" && FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$OUT/build_r.log" 2>&1; echo "build exit $?"
timeout 200 python3 -m pytest -q tests -k "bias_over_256_kib or deterministic" -p no:cacheprovider > "$OUT/tests_r.log" 2>&1
echo "tests exit $?"; tail -n 1 "$OUT/tests_r.log"
for i in 1 2 3 4 5; do
  timeout 100 python3 benchmarks/bench_fused_bias_gelu.py --shapes 4096x1024 16x1024 32x262144 4x4194304 \
    --json "$OUT/rep_$i.json" > "$OUT/rep_$i.log" 2>&1
  echo "run $i exit $?"
done
