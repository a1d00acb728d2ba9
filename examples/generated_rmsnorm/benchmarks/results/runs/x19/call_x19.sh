#!/usr/bin/env bash
# GPU call X19 (issue 11), one H200, the template at the commit in $X/commit.txt (LayerNorm's
# reduction step without a division only where every lane of the warp has equal counts, and not
# tried in shifted rows).
# Usage: call_x19.sh a|b. Results in res_x19$1.
#  a: the RMSNorm example's GPU suite (build, tests, compute-sanitizer, benchmark; no just-in-time
#     rebuild timing) while the LayerNorm and two-family projects build; then the LayerNorm suite
#     without build, then the two-family project's CUDA tests, then the butterfly steps' SASS of the
#     bfloat16 LayerNorm forward kernels at four vectors a thread, rows shifted and not
#     (butterfly_sass.py), in the LayerNorm build and in sass/*.o (the same source file built on the
#     CPU machine at X16's, X17's, X18's and this commit).
#  b: the residual-add RMSNorm project's suite while the residual-add LayerNorm project builds,
#     then the residual-add LayerNorm's suite without build.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd); part=$1
R=$X/res_x19$part; mkdir -p "$R"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_x19$part.txt" 2>&1
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
  tar czf "$OUT/results_x19a1.tgz" -C "$X" res_x19a
  suite layer_norm $(( 560 - $(elapsed) )) --skip-build
  tar czf "$OUT/results_x19a2.tgz" -C "$X" res_x19a
  (cd "$X/mixed" && timeout 30 python3 -m pytest -q -p no:cacheprovider tests -k cuda > "$R/tests_mixed_cuda.log" 2>&1; echo "mixed cuda tests exit $?"; tail -n 1 "$R/tests_mixed_cuda.log")
  K=14forward_kernelINS_5norms9LayerNormEN3c108BFloat16ES6_Li8ELi4ELb1ELb
  for o in "$X"/layer_norm/src/*/_C*.so "$X"/sass/*.o; do
    for shifted in 0 1; do
      echo "== $o"; python3 "$X/butterfly_sass.py" "$o" "${K}${shifted}EE"
    done
  done > "$R/butterfly_sass.txt" 2>&1
  tar czf "$OUT/results_x19a3.tgz" -C "$X" res_x19a
else
  build fused_add_layer_norm
  suite fused_add_rms_norm 340
  wait
  tar czf "$OUT/results_x19b1.tgz" -C "$X" res_x19b
  suite fused_add_layer_norm $(( 590 - $(elapsed) )) --skip-build
  tar czf "$OUT/results_x19b2.tgz" -C "$X" res_x19b
fi
