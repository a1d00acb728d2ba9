#!/usr/bin/env bash
# GPU call W2 (issue 11), one H200, same commit as call W (commit.txt): the gelu example's GPU suite
# (build, tests, compute-sanitizer, benchmark; no just-in-time rebuild timing) while a project with
# an operator of each family (the gelu example's answers plus an RMSNorm operator, rendered anew:
# in call W the RMSNorm operator had not been added) builds, then that project's CUDA test cases
# (-k cuda; CI runs its CPU cases). Results in res_w2, packed into $OUT/results_w2.tgz.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
B=$(cd "$(dirname "$0")" && pwd)
R=$B/res_w2; mkdir -p "$R"
cp "$B/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_w2.txt" 2>&1
(cd "$B/mixed" && MAX_JOBS=8 FORCE_CUDA=1 timeout 230 python3 setup.py build_ext --inplace > "$R/build_mixed.log" 2>&1; echo "build mixed exit $?") &
(cd "$B/example" && timeout 235 python3 benchmarks/gpu_suite.py --skip-jit --out "$R/example") > "$R/example_suite.log" 2>&1
echo "example suite exit $?"
wait
(cd "$B/mixed" && timeout 75 python3 -m pytest -q -p no:cacheprovider tests -k cuda > "$R/tests_mixed_cuda.log" 2>&1; echo "mixed cuda tests exit $?"; tail -n 1 "$R/tests_mixed_cuda.log")
tar czf "$OUT/results_w2.tgz" -C "$B" res_w2
tail -n 3 "$R/example_suite.log"
