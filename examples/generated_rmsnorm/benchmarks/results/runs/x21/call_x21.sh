#!/usr/bin/env bash
# GPU call X21 (issue 11), one H200, the template at the commit in $X/commit.txt (as X20, but three
# stages of staging only in rows that start on a vector boundary).
# Usage: call_x21.sh a|b. Results in res_x21$1.
#  a: the RMSNorm example's GPU suite (build, tests, compute-sanitizer, benchmark; no just-in-time
#     rebuild timing) while the LayerNorm and two-family projects build; then the LayerNorm suite
#     without build, then the two-family project's CUDA tests.
#  b: the residual-add RMSNorm project's suite while the residual-add LayerNorm project builds,
#     then the residual-add LayerNorm's suite without build.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd); part=$1
R=$X/res_x21$part; mkdir -p "$R"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_x21$part.txt" 2>&1
python3 -m pip install --no-deps --no-index "$X"/liger_kernel-*.whl > "$R/pip.log" 2>&1; echo "liger install exit $?"
build() {  # build PROJECT: in the background, into $R/build_PROJECT.log
  (cd "$X/$1" && MAX_JOBS=4 FORCE_CUDA=1 timeout 240 python3 setup.py build_ext --inplace > "$R/build_$1.log" 2>&1; echo "build $1 exit $? at $(elapsed) s") &
}
suite() {  # suite PROJECT LIMIT [gpu_suite options]
  local p=$1 limit=$2; shift 2
  (cd "$X/$p" && timeout "$limit" python3 benchmarks/gpu_suite.py --skip-jit "$@" --out "$R/$p") > "$R/${p}_suite.log" 2>&1
  echo "$p suite exit $? at $(elapsed) s (limit $limit s)"
}
if [ "$part" = a ]; then
  build layer_norm; build mixed
  suite rmsnorm 340
  wait
  tar czf "$OUT/results_x21a1.tgz" -C "$X" res_x21a
  suite layer_norm $(( 560 - $(elapsed) )) --skip-build
  tar czf "$OUT/results_x21a2.tgz" -C "$X" res_x21a
  (cd "$X/mixed" && timeout 30 python3 -m pytest -q -p no:cacheprovider tests -k cuda > "$R/tests_mixed_cuda.log" 2>&1; echo "mixed cuda tests exit $?"; tail -n 1 "$R/tests_mixed_cuda.log")
  tar czf "$OUT/results_x21a3.tgz" -C "$X" res_x21a
else
  build fused_add_layer_norm
  suite fused_add_rms_norm 340
  wait
  tar czf "$OUT/results_x21b1.tgz" -C "$X" res_x21b
  suite fused_add_layer_norm $(( 590 - $(elapsed) )) --skip-build
  tar czf "$OUT/results_x21b2.tgz" -C "$X" res_x21b
fi
