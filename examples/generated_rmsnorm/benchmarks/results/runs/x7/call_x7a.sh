#!/usr/bin/env bash
# GPU call X7a (issue 11), one H200, the template at the commit in $X/commit.txt (the kernels with the
# bfloat16 conversions of lab P2): the RMSNorm example's GPU suite
# (build, tests, compute-sanitizer, benchmark; no just-in-time rebuild timing) while the LayerNorm,
# residual-add LayerNorm and two-family projects build; the residual-add LayerNorm's tests and the
# two-family project's CUDA tests; then the LayerNorm suite without build and JIT. Results in res_x7.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd)
R=$X/res_x7; mkdir -p "$R"
start=$(date +%s)
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_x7.txt" 2>&1
python3 -m pip install --no-deps --no-index "$X"/liger_kernel-*.whl > "$R/pip.log" 2>&1; echo "liger install exit $?"
for p in layer_norm fused_add_layer_norm mixed; do
  (cd "$X/$p" && MAX_JOBS=4 FORCE_CUDA=1 timeout 240 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $?") &
done
(cd "$X/rmsnorm" && timeout 290 python3 benchmarks/gpu_suite.py --skip-jit --out "$R/rmsnorm") > "$R/rmsnorm_suite.log" 2>&1
echo "rmsnorm suite exit $? at $(( $(date +%s) - start )) s"
wait
tar czf "$OUT/results_x7a1.tgz" -C "$X" res_x7
(cd "$X/fused_add_layer_norm" && timeout 60 python3 -m pytest -q -p no:cacheprovider tests > "$R/tests_fused_add_layer_norm.log" 2>&1; echo "fused_add_layer_norm tests exit $?"; tail -n 1 "$R/tests_fused_add_layer_norm.log")
(cd "$X/mixed" && timeout 60 python3 -m pytest -q -p no:cacheprovider tests -k cuda > "$R/tests_mixed_cuda.log" 2>&1; echo "mixed cuda tests exit $?"; tail -n 1 "$R/tests_mixed_cuda.log")
tar czf "$OUT/results_x7a2.tgz" -C "$X" res_x7
left=$(( 585 - ($(date +%s) - start) ))
(cd "$X/layer_norm" && timeout $left python3 benchmarks/gpu_suite.py --skip-build --skip-jit --out "$R/layer_norm") > "$R/layer_norm_suite.log" 2>&1
echo "layer_norm suite exit $? at $(( $(date +%s) - start )) s (limit $left s)"
tar czf "$OUT/results_x7a3.tgz" -C "$X" res_x7
