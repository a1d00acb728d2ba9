#!/usr/bin/env bash
# GPU call X1 (issue 11), one H200, the template at the commit in $X/commit.txt:
# 1. the RMSNorm example's GPU suite (build, tests, compute-sanitizer memcheck and racecheck,
#    benchmark against eager, torch.compile and Liger-Kernel 0.8.5; no just-in-time rebuild timing)
#    while the residual-add RMSNorm project builds;
# 2. the residual-add RMSNorm project's suite without build and JIT: tests, compute-sanitizer,
#    benchmark against eager, torch.compile and Liger's fused add + RMSNorm.
# Results in res_x1, packed into $OUT/results_x1.tgz.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd)
R=$X/res_x1; mkdir -p "$R"
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_x1.txt" 2>&1
python3 -m pip install --no-deps --no-index "$X"/liger_kernel-*.whl > "$R/pip.log" 2>&1; echo "liger install exit $?"
(cd "$X/fused_add_rms_norm" && MAX_JOBS=6 FORCE_CUDA=1 timeout 250 python3 setup.py build_ext --inplace > "$R/build_fused_add_rms_norm.log" 2>&1; echo "build fused_add_rms_norm exit $?") &
(cd "$X/rmsnorm" && timeout 280 python3 benchmarks/gpu_suite.py --skip-jit --out "$R/rmsnorm") > "$R/rmsnorm_suite.log" 2>&1
echo "rmsnorm suite exit $?"
wait
(cd "$X/fused_add_rms_norm" && timeout 270 python3 benchmarks/gpu_suite.py --skip-build --skip-jit --out "$R/fused_add_rms_norm") > "$R/fused_add_rms_norm_suite.log" 2>&1
echo "fused_add_rms_norm suite exit $?"
tar czf "$OUT/results_x1.tgz" -C "$X" res_x1
tail -n 4 "$R/rmsnorm_suite.log" "$R/fused_add_rms_norm_suite.log"
