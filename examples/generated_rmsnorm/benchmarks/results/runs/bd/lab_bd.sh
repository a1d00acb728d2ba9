#!/usr/bin/env bash
# Lab BD (issue 11), session 50 (2026-11-30): one call on two H200s (nvidia-h200-x2), carrying .gpu
# (`scaffold gpu-bundle .gpu` of main, no edits):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bd/lab_bd.sh   (timeout_s 600)
# The rule that lab BC's timings chose for the residual-add forward's loads (variant_bd.py: rule, the
# template's change as rendered; eight, the same with kMostItemsLoadedFirst at 8) against main (base),
# before it lands: the residual-add RMSNorm's and the residual-add LayerNorm's projects, each built
# base, rule and eight, all at once; every CUDA test of each project's rule build (pytest -k "not
# cpu", at most 200 s: the residual-add RMSNorm on GPU 0, the residual-add LayerNorm on GPU 1); then
# the device time of forward and forward+backward (../e/e_time.py) of base, rule, eight and base
# again, in each project in turn, at the table's shapes, the 16-bit dtypes on GPU 0 and float32 on
# GPU 1; then compute-sanitizer memcheck of both rule builds' sanitizer workloads (at most 120 s each,
# beside each other). Limit 580 s: no timing starts with under 50 s left. Results in
# $OUT/res_bd.tgz: `mkdir -p bd/bd && tar xzf res_bd.tgz -C bd/bd --strip-components=1` in runs/,
# add console.txt, then `python3 lab_summary.py bd/bd base rule eight > bd/summary_bd.txt`.
. "$(dirname "$0")/../call_lib.sh" bd
lab_start  # limit, gpus, L (call_lib.sh)
[ "$gpus" -gt 1 ] || { echo "lab BD wants two GPUs"; exit 3; }
declare -A LAB_EDITS=([base]="" [rule]="bd:rule" [eight]="bd:eight")
PROJECTS="fused_add_rms_norm fused_add_layer_norm"
lab_builds "$PROJECTS" "base rule eight"
# every CUDA test of BUILD on GPU, at most 200 s and never into the last 250 s of the limit
all_cuda_tests() {
  local l=$(( $(lab_left) - 250 )); [ "$l" -gt 200 ] && l=200
  [ "$l" -gt 10 ] || { echo "tests $1 not run: $(elapsed) s"; return; }
  (cd "$L/$1" && CUDA_VISIBLE_DEVICES=$2 timeout "$l" python3 -m pytest tests -q -p no:cacheprovider -k "not cpu" \
     > "$R/tests_$1.log" 2>&1)
  echo "tests $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_$1.log")"
}
all_cuda_tests fused_add_rms_norm_rule 0 &
all_cuda_tests fused_add_layer_norm_rule 1 &
wait; pack
SHAPES=4096x16384,8192x8192,32768x4096,1024x65536,8192x4095,4096x1024
lab_time_runs 0 16bit bfloat16,float16 "$SHAPES" "$PROJECTS" "base rule eight base" &
lab_time_runs 1 float32 float32 "$SHAPES" "$PROJECTS" "base rule eight base" &
wait
lab_sanitize fused_add_rms_norm_rule fused_add_rms_norm memcheck 0 120 &
lab_sanitize fused_add_layer_norm_rule fused_add_layer_norm memcheck 1 120 &
wait
echo "done at $(elapsed) s"; pack
