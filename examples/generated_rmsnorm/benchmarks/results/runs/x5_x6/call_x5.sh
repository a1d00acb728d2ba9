#!/usr/bin/env bash
# GPU call X5 (issue 11), one H200, the template at the commit in $X/commit.txt (the CPU loops' rewrite,
# the forward kernel's bfloat16 loads and register budget): the RMSNorm example's GPU suite
# (build, tests, compute-sanitizer, benchmark; no just-in-time rebuild timing) while the residual-add
# RMSNorm and the LayerNorm projects build; then those two projects' suites without build and JIT.
# Each suite's results are packed into $OUT as soon as it ends. Results in res_x5.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd)
R=$X/res_x5; mkdir -p "$R"
start=$(date +%s)
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_x5.txt" 2>&1
python3 -m pip install --no-deps --no-index "$X"/liger_kernel-*.whl > "$R/pip.log" 2>&1; echo "liger install exit $?"
for p in fused_add_rms_norm layer_norm; do
  (cd "$X/$p" && MAX_JOBS=5 FORCE_CUDA=1 timeout 200 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $?") &
done
(cd "$X/rmsnorm" && timeout 215 python3 benchmarks/gpu_suite.py --skip-jit --out "$R/rmsnorm") > "$R/rmsnorm_suite.log" 2>&1
echo "rmsnorm suite exit $? at $(( $(date +%s) - start )) s"
wait
tar czf "$OUT/results_x5a.tgz" -C "$X" res_x5
(cd "$X/fused_add_rms_norm" && timeout 195 python3 benchmarks/gpu_suite.py --skip-build --skip-jit --out "$R/fused_add_rms_norm") > "$R/fused_add_rms_norm_suite.log" 2>&1
echo "fused_add_rms_norm suite exit $? at $(( $(date +%s) - start )) s"
tar czf "$OUT/results_x5b.tgz" -C "$X" res_x5
left=$(( 545 - ($(date +%s) - start) ))
(cd "$X/layer_norm" && timeout $left python3 benchmarks/gpu_suite.py --skip-build --skip-jit --out "$R/layer_norm") > "$R/layer_norm_suite.log" 2>&1
echo "layer_norm suite exit $? at $(( $(date +%s) - start )) s (limit $left s)"
tar czf "$OUT/results_x5c.tgz" -C "$X" res_x5
