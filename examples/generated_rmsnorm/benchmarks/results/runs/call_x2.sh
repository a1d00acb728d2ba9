#!/usr/bin/env bash
# GPU call X2 (issue 11), one H200, the same commit as call X1 (commit.txt):
# 1. the gelu example's GPU suite (build, tests, compute-sanitizer, benchmark; no just-in-time
#    rebuild timing) while three projects build: LayerNorm, LayerNorm with the residual add, and a
#    project with an operator of each family (the gelu example's answers plus a residual-add RMSNorm);
# 2. the LayerNorm project's suite without build and JIT (tests, compute-sanitizer, benchmark);
# 3. the residual-add LayerNorm project's tests (CPU and CUDA) and the two-family project's CUDA
#    test cases (-k cuda; CI runs its CPU cases).
# Results in res_x2, packed into $OUT/results_x2.tgz.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd)
R=$X/res_x2; mkdir -p "$R"
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_x2.txt" 2>&1
python3 -m pip install --no-deps --no-index "$X"/liger_kernel-*.whl > "$R/pip.log" 2>&1; echo "liger install exit $?"
for p in layer_norm fused_add_layer_norm mixed; do
  (cd "$X/$p" && MAX_JOBS=4 FORCE_CUDA=1 timeout 280 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $?") &
done
(cd "$X/example" && timeout 260 python3 benchmarks/gpu_suite.py --skip-jit --out "$R/example") > "$R/example_suite.log" 2>&1
echo "example suite exit $?"
wait
(cd "$X/layer_norm" && timeout 200 python3 benchmarks/gpu_suite.py --skip-build --skip-jit --out "$R/layer_norm") > "$R/layer_norm_suite.log" 2>&1
echo "layer_norm suite exit $?"
(cd "$X/fused_add_layer_norm" && timeout 60 python3 -m pytest -q -p no:cacheprovider tests > "$R/tests_fused_add_layer_norm.log" 2>&1; echo "fused_add_layer_norm tests exit $?"; tail -n 1 "$R/tests_fused_add_layer_norm.log")
(cd "$X/mixed" && timeout 60 python3 -m pytest -q -p no:cacheprovider tests -k cuda > "$R/tests_mixed_cuda.log" 2>&1; echo "mixed cuda tests exit $?"; tail -n 1 "$R/tests_mixed_cuda.log")
tar czf "$OUT/results_x2.tgz" -C "$X" res_x2
tail -n 3 "$R/example_suite.log" "$R/layer_norm_suite.log"
