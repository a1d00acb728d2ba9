#!/usr/bin/env bash
# GPU call X7b (issue 11), one H200, right after X7a, the same commit: the residual-add RMSNorm
# project's GPU suite (build, tests, compute-sanitizer, benchmark; no just-in-time rebuild timing).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd)
R=$X/res_x7b; mkdir -p "$R"
start=$(date +%s)
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_x7b.txt" 2>&1
python3 -m pip install --no-deps --no-index "$X"/liger_kernel-*.whl > "$R/pip.log" 2>&1; echo "liger install exit $?"
(cd "$X/fused_add_rms_norm" && timeout 400 python3 benchmarks/gpu_suite.py --skip-jit --out "$R/fused_add_rms_norm") > "$R/fused_add_rms_norm_suite.log" 2>&1
echo "fused_add_rms_norm suite exit $? at $(( $(date +%s) - start )) s"
tar czf "$OUT/results_x7b.tgz" -C "$X" res_x7b
