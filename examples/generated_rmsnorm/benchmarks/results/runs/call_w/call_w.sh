#!/usr/bin/env bash
# GPU call W (issue 11), one H200, on branch issue11-rownorm at the commit named in $W/commit.txt:
# 1. the RMSNorm example's GPU suite (build, tests, compute-sanitizer memcheck and racecheck,
#    benchmark against eager, torch.compile and Liger-Kernel 0.8.5; no just-in-time rebuild timing),
#    while the two other projects build;
# 2. a project with an operator of each family (the gelu example's answers plus an RMSNorm operator):
#    its CUDA test cases (-k cuda; CI runs its CPU cases);
# 3. the LayerNorm project's GPU suite without build, sanitizer and JIT: tests and benchmark.
# Results in res_w, packed into $OUT/results_w.tgz.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
B=$(cd "$(dirname "$0")" && pwd)
R=$B/res_w; mkdir -p "$R"
cp "$B/commit.txt" "$R/" 2>/dev/null
nvidia-smi > "$R/nvidia_smi_w.txt" 2>&1
python3 -m pip install --no-deps --no-index "$B"/liger_kernel-*.whl > "$R/pip.log" 2>&1; echo "liger install exit $?"
for p in mixed layer_norm; do
  (cd "$B/$p" && MAX_JOBS=5 FORCE_CUDA=1 timeout 290 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $?") &
done
(cd "$B/rmsnorm" && timeout 290 python3 benchmarks/gpu_suite.py --skip-jit --out "$R/rmsnorm") > "$R/rmsnorm_suite.log" 2>&1
echo "rmsnorm suite exit $?"
wait
(cd "$B/mixed" && timeout 110 python3 -m pytest -q -p no:cacheprovider tests -k cuda > "$R/tests_mixed_cuda.log" 2>&1; echo "mixed cuda tests exit $?"; tail -n 1 "$R/tests_mixed_cuda.log")
(cd "$B/layer_norm" && timeout 140 python3 benchmarks/gpu_suite.py --skip-build --skip-sanitizer --skip-jit --out "$R/layer_norm") > "$R/layer_norm_suite.log" 2>&1
echo "layer_norm suite exit $?"
tar czf "$OUT/results_w.tgz" -C "$B" res_w
tail -n 3 "$R/rmsnorm_suite.log" "$R/layer_norm_suite.log"
