#!/usr/bin/env bash
# Lab BG (issue 11), session 50 (2026-11-30): the change to land next (labs BC to BF's rules: the
# residual-add forward's loads first, kLoadsFirst; the residual-add RMSNorm's 16-bit rows of 257 to
# 1024 vectors at two vectors a thread, kTwoItemRows; the tests and sanitizer shapes that take them)
# built and tested before its landing call, in the time session 50 had left. One call on two H200s
# (nvidia-h200-x2), carrying .gpu (`scaffold gpu-bundle .gpu` of the working tree that held the
# change, uncommitted: commit.txt says so; template_change_tested.diff here is that change, and
# template_change.diff the change after its review):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bg/lab_bg.sh   (timeout_s 370)
# The four norms' projects built at once; every CUDA test (pytest -k "not cpu") of the residual-add
# RMSNorm and RMSNorm on GPU 0, of the residual-add LayerNorm and LayerNorm on GPU 1 (at most 100 s
# each); then compute-sanitizer memcheck of the residual-add norms' sanitizer workloads (at most 90 s
# each, beside each other). Limit 340 s. Results in $OUT/res_bg.tgz: `mkdir -p bg/bg && tar xzf
# res_bg.tgz -C bg/bg --strip-components=1` in runs/, add console.txt.
. "$(dirname "$0")/../call_lib.sh" bg
lab_start  # limit, gpus, L (call_lib.sh)
limit=340
[ "$gpus" -gt 1 ] || { echo "lab BG wants two GPUs"; exit 3; }
declare -A LAB_EDITS=([new]="")
lab_builds "fused_add_rms_norm rmsnorm fused_add_layer_norm layer_norm" new
cuda_tests() {  # cuda_tests BUILD GPU: every CUDA test, at most 100 s, never into the last 100 s
  local l=$(( $(lab_left) - 100 )); [ "$l" -gt 100 ] && l=100
  [ "$l" -gt 10 ] || { echo "tests $1 not run: $(elapsed) s"; return; }
  (cd "$L/$1" && CUDA_VISIBLE_DEVICES=$2 timeout "$l" python3 -m pytest tests -q -p no:cacheprovider -k "not cpu" \
     > "$R/tests_$1.log" 2>&1)
  echo "tests $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_$1.log")"
}
(cuda_tests fused_add_rms_norm_new 0; pack; cuda_tests rmsnorm_new 0; pack) &
(cuda_tests fused_add_layer_norm_new 1; pack; cuda_tests layer_norm_new 1; pack) &
wait
lab_sanitize fused_add_rms_norm_new fused_add_rms_norm memcheck 0 90 &
lab_sanitize fused_add_layer_norm_new fused_add_layer_norm memcheck 1 90 &
wait
echo "done at $(elapsed) s"; pack
