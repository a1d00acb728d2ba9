#!/usr/bin/env bash
# GPU call X10 (issue 11; the same as X9), one H200, the template at the commit in $X/commit.txt (the backward's staging fallback, short rows;
# labs R1-R3). Usage: call_x10.sh a|b. Results in res_x10$1.
#  a: the RMSNorm example's GPU suite (build, tests, compute-sanitizer, benchmark; no just-in-time
#     rebuild timing) while the LayerNorm, residual-add LayerNorm and two-family projects build; the
#     residual-add LayerNorm's tests and the two-family project's CUDA tests; then the LayerNorm
#     suite without build.
#  b: the residual-add RMSNorm project's suite while the residual-add LayerNorm project builds, then
#     the residual-add LayerNorm's suite without build.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd); part=$1
R=$X/res_x10$part; mkdir -p "$R"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_x10$part.txt" 2>&1
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
  for p in layer_norm fused_add_layer_norm mixed; do build $p; done
  suite rmsnorm 290
  wait
  tar czf "$OUT/results_x10a1.tgz" -C "$X" res_x10a
  (cd "$X/fused_add_layer_norm" && timeout 60 python3 -m pytest -q -p no:cacheprovider tests > "$R/tests_fused_add_layer_norm.log" 2>&1; echo "fused_add_layer_norm tests exit $?"; tail -n 1 "$R/tests_fused_add_layer_norm.log")
  (cd "$X/mixed" && timeout 60 python3 -m pytest -q -p no:cacheprovider tests -k cuda > "$R/tests_mixed_cuda.log" 2>&1; echo "mixed cuda tests exit $?"; tail -n 1 "$R/tests_mixed_cuda.log")
  tar czf "$OUT/results_x10a2.tgz" -C "$X" res_x10a
  suite layer_norm $(( 585 - $(elapsed) )) --skip-build
  tar czf "$OUT/results_x10a3.tgz" -C "$X" res_x10a
else
  build fused_add_layer_norm
  suite fused_add_rms_norm 300
  wait
  tar czf "$OUT/results_x10b1.tgz" -C "$X" res_x10b
  suite fused_add_layer_norm $(( 585 - $(elapsed) )) --skip-build
  tar czf "$OUT/results_x10b2.tgz" -C "$X" res_x10b
fi
