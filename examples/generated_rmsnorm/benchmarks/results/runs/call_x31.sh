#!/usr/bin/env bash
# GPU call X31 (issue 11), one H200, the template at the commit in $X/commit.txt (X30's, with the
# forward's two item rules kept to more rows than multiprocessors, and lab K's split cluster barrier in
# the staged forward).
# Usage: call_x31.sh a|b|c|d. Results in res_x31$1. (As in X23: X21's two calls no longer fit 600 s; X23a,
# its first try, timed out in the RMSNorm benchmark at 340 s.)
#  a: the RMSNorm example's GPU suite (build, tests, compute-sanitizer, benchmark; no just-in-time
#     rebuild timing) while the two-family project builds, then the two-family project's CUDA tests.
#  b: the residual-add RMSNorm project's suite.  c: the LayerNorm project's.  d: the residual-add
#     LayerNorm project's.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd); part=$1
R=$X/res_x31$part; mkdir -p "$R"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_x31$part.txt" 2>&1
python3 -m pip install --no-deps --no-index "$X"/liger_kernel-*.whl > "$R/pip.log" 2>&1; echo "liger install exit $?"
build() {  # build PROJECT: in the background, into $R/build_PROJECT.log
  (cd "$X/$1" && MAX_JOBS=6 FORCE_CUDA=1 timeout 240 python3 setup.py build_ext --inplace > "$R/build_$1.log" 2>&1; echo "build $1 exit $? at $(elapsed) s") &
}
suite() {  # suite PROJECT LIMIT [gpu_suite options]: the build on MAX_JOBS jobs (default 14)
  local p=$1 limit=$2; shift 2
  (cd "$X/$p" && MAX_JOBS=${MAX_JOBS:-14} timeout "$limit" python3 benchmarks/gpu_suite.py --skip-jit "$@" --out "$R/$p") > "$R/${p}_suite.log" 2>&1
  echo "$p suite exit $? at $(elapsed) s (limit $limit s)"
}
if [ "$part" = a ]; then
  build mixed
  MAX_JOBS=9 suite rmsnorm 480
  wait
  tar czf "$OUT/results_x31a1.tgz" -C "$X" res_x31a
  (cd "$X/mixed" && timeout 100 python3 -m pytest -q -p no:cacheprovider tests -k cuda > "$R/tests_mixed_cuda.log" 2>&1; echo "mixed cuda tests exit $?"; tail -n 1 "$R/tests_mixed_cuda.log")
  tar czf "$OUT/results_x31a2.tgz" -C "$X" res_x31a
else
  case $part in b) p=fused_add_rms_norm ;; c) p=layer_norm ;; d) p=fused_add_layer_norm ;; esac
  suite $p 560
  tar czf "$OUT/results_x31$part.tgz" -C "$X" res_x31$part
fi
