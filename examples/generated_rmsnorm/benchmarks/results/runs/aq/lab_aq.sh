#!/usr/bin/env bash
# Lab AQ (issue 11), prepared in session 41 (2026-11-29) for a later session: one call, on one H200 or
# two (nvidia-h200-x2 preferred), carrying .gpu (`scaffold gpu-bundle .gpu` of main):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/aq/lab_aq.sh
# Two builds of each norm's project: an2 (lab AN's, which ../an/template_an2.diff wrote into the
# template: main since call AP, the bundle's renderings as they are) and bulk
# (an2 and variant_aq.py's bulk: the backward's stages filled by bulk copies). All at once; then the
# CUDA tests of the backward of each bulk build, and compute-sanitizer racecheck and memcheck of the
# LayerNorm and residual-add RMSNorm bulk builds' sanitizer workloads (benchmarks/sanitize_OP.py, as
# gpu_suite.py runs them) and memcheck of RMSNorm's (its kernels alone take three stages); on one GPU,
# memcheck of the three and racecheck of LayerNorm's alone. Each test and sanitizer run is bounded by
# the time left and packed when done; a build whose tests run out of time (a hang in the new barriers)
# is left out of the sanitizer and timing runs. Then the device time of forward and forward+backward (../e/e_time.py) of
# an2, bulk and an2 again, for each norm in turn, at 1024 x 65536, 4096 x 16384, 8192 x 8192,
# 32768 x 4096, 8192 x 4095 and 4096 x 1024; with two GPUs the 16-bit dtypes on one and float32 on the
# other. Results in $OUT/res_aq.tgz: unpack with `mkdir -p aq && tar xzf res_aq.tgz -C aq
# --strip-components=1` in runs/aq/, add console.txt, then `python3 summary_aq.py > summary.txt`. The
# limit is 580 s: no timing starts with under 50 s left, and none runs past the limit.
. "$(dirname "$0")/../call_lib.sh" aq
lab_start  # limit, gpus, L (call_lib.sh)
# Main holds an2 since call AP (session 42): the an2 build takes no edit, bulk variant_aq.py's alone.
declare -A LAB_EDITS=([an2]="" [bulk]="aq:bulk")
PROJECTS="layer_norm rmsnorm fused_add_layer_norm fused_add_rms_norm"
lab_builds "$PROJECTS" "an2 bulk"
K="not cpu and (forward_and_backward_match_reference or cuda_shapes or large_shapes or cluster_blocks or backward_with_few_row_groups or backward_is_deterministic or cuda_graph or far or staged or stages or shared_memory or misaligned or without_grad_residual_out)"
cap() { local l; l=$(( $(lab_left) - 10 )); [ "$l" -lt "$1" ] && echo "$l" || echo "$1"; }  # cap SECONDS: at most what is left
hung=" "  # the builds whose tests ran out of time (a hang in the new barriers): no sanitizer or timing runs them
check() {  # check BUILD
  [ "$(cap 120)" -gt 10 ] || { echo "tests $1 not run: $(elapsed) s"; return; }
  (cd "$L/$1" && timeout "$(cap 120)" python3 -m pytest tests -q -p no:cacheprovider -k "$K" > "$R/tests_$1.log" 2>&1)
  local rc=$?; echo "tests $1 exit $rc at $(elapsed) s: $(tail -n 1 "$R/tests_$1.log")"
  [ $rc -eq 124 ] && { hung="$hung$1 "; echo "$1" >> "$R/hung.txt"; }
  pack
}
sanitize() {  # sanitize BUILD OP TOOL: compute-sanitizer on the build's sanitizer workload
  case "$hung" in *" $1 "*) echo "$3 $1 not run: its tests ran out of time"; return ;; esac
  [ "$(cap 240)" -gt 10 ] || { echo "$3 $1 not run: $(elapsed) s"; return; }
  (cd "$L/$1" && PYTORCH_NO_CUDA_MEMORY_CACHING=1 PYTHONPATH=src timeout "$(cap 240)" compute-sanitizer --tool "$3" \
     --error-exitcode 1 python3 "benchmarks/sanitize_$2.py" > "$R/sanitizer_$3_$1.log" 2>&1
   echo "$3 $1 exit $? at $(elapsed) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/sanitizer_$3_$1.log" | tail -n 1)")
  pack
}
# (The three-stage kernels are RMSNorm's alone: its memcheck too.)
if [ "$gpus" -gt 1 ]; then
  (CUDA_VISIBLE_DEVICES=0 check layer_norm_bulk; CUDA_VISIBLE_DEVICES=0 check rmsnorm_bulk
   CUDA_VISIBLE_DEVICES=0 sanitize layer_norm_bulk layer_norm racecheck
   CUDA_VISIBLE_DEVICES=0 sanitize layer_norm_bulk layer_norm memcheck
   CUDA_VISIBLE_DEVICES=0 sanitize rmsnorm_bulk rms_norm memcheck) &
  (CUDA_VISIBLE_DEVICES=1 check fused_add_layer_norm_bulk; CUDA_VISIBLE_DEVICES=1 check fused_add_rms_norm_bulk
   CUDA_VISIBLE_DEVICES=1 sanitize fused_add_rms_norm_bulk fused_add_rms_norm racecheck
   CUDA_VISIBLE_DEVICES=1 sanitize fused_add_rms_norm_bulk fused_add_rms_norm memcheck) & wait
else
  # One GPU: memcheck of three builds and racecheck of LayerNorm's alone, to leave time for timings
  # (even so the residual-add norms' timings may not fit in the 580 s).
  for d in layer_norm_bulk rmsnorm_bulk fused_add_layer_norm_bulk fused_add_rms_norm_bulk; do check $d; done
  sanitize layer_norm_bulk layer_norm memcheck; sanitize rmsnorm_bulk rms_norm memcheck
  sanitize fused_add_rms_norm_bulk fused_add_rms_norm memcheck; sanitize layer_norm_bulk layer_norm racecheck
fi
pack
SHAPES=1024x65536,4096x16384,8192x8192,32768x4096,8192x4095,4096x1024
skip=" $(sed 's/_bulk$//' "$R/hung.txt" 2>/dev/null | tr '\n' ' ')"  # projects whose bulk build's tests hung
if [ "$gpus" -gt 1 ]; then
  lab_time_runs 0 16bit bfloat16,float16 "$SHAPES" "$PROJECTS" "an2 bulk an2" "$skip" &
  lab_time_runs 1 float32 float32 "$SHAPES" "$PROJECTS" "an2 bulk an2" "$skip" & wait
else
  lab_time_runs 0 all bfloat16,float16,float32 "$SHAPES" "$PROJECTS" "an2 bulk an2" "$skip"
fi
echo "done at $(elapsed) s"; pack
