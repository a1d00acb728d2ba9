#!/usr/bin/env bash
# Lab AT2 (issue 11), session 43 (2026-11-30): one call on two H200s of one host (nvidia-h200-x2),
# carrying .gpu (`scaffold gpu-bundle .gpu` of main), in the device time lab AT left (490 s, so a
# limit of 380 s here):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/at/lab_at2.sh
# Lab AT's keep took the workspace out but its grid's sum was slow (one warp's 32 columns a block,
# 64-bit index arithmetic for every load). keep2 (variant_at.py) spreads it over every block. Builds
# base (main) and keep2 of RMSNorm's and the residual-add RMSNorm's projects, all at once; the CUDA
# tests of the backward of each keep2 build; at_streams.py on each; the device time and peak memory
# (../e/e_time.py with B_PEAK=1) of base, keep2 and base again, the 16-bit dtypes on one GPU and
# float32 on the other, at lab AT's six shapes; then, with the time left, compute-sanitizer memcheck
# and racecheck of RMSNorm's keep2 build's sanitizer workload. Results in $OUT/res_at2.tgz: unpack
# with `mkdir -p at2 && tar xzf res_at2.tgz -C at2 --strip-components=1` in runs/at/, add
# console.txt, then `python3 summary_at.py at2 keep2 > summary_at2.txt`.
. "$(dirname "$0")/../call_lib.sh" at2
lab_start  # limit, gpus, L (call_lib.sh)
limit=380
declare -A LAB_EDITS=([base]="" [keep2]="at:keep2")
PROJECTS="rmsnorm fused_add_rms_norm"
lab_builds "$PROJECTS" "base keep2"
K="not cpu and (forward_and_backward_match_reference or cuda_shapes or large_shapes or backward_with_few_row_groups or backward_is_deterministic or cuda_graph or stages or shared_memory or misaligned or without_grad_residual_out or float32_parameters)"
g1=1; [ "$gpus" -gt 1 ] || g1=0
lab_tests rmsnorm_keep2 0 "$K" 200 & lab_tests fused_add_rms_norm_keep2 $g1 "$K" 200 & wait; pack
streams() {  # streams BUILD OP GPU
  (cd "$L/$1" && CUDA_VISIBLE_DEVICES=$3 timeout 90 python3 "$G/at_streams.py" "$2" > "$R/streams_$1.log" 2>&1)
  echo "streams $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/streams_$1.log")"
}
streams rmsnorm_keep2 rms_norm 0 & streams fused_add_rms_norm_keep2 fused_add_rms_norm $g1 & wait; pack
export B_PEAK=1
SHAPES=32768x4096,8192x8192,4096x16384,1024x65536,8192x4095,4096x1024
if [ "$gpus" -gt 1 ]; then
  lab_time_runs 0 16bit bfloat16,float16 "$SHAPES" "$PROJECTS" "base keep2 base" &
  lab_time_runs 1 float32 float32 "$SHAPES" "$PROJECTS" "base keep2 base" & wait
else
  lab_time_runs 0 all bfloat16,float16,float32 "$SHAPES" "$PROJECTS" "base keep2 base"
fi
sanitize() {  # sanitize BUILD OP TOOL GPU: compute-sanitizer on the build's sanitizer workload
  local l=$(( $(lab_left) - 5 ))
  [ "$l" -gt 30 ] || { echo "$3 $1 not run: $(elapsed) s"; return; }
  (cd "$L/$1" && CUDA_VISIBLE_DEVICES=$4 PYTORCH_NO_CUDA_MEMORY_CACHING=1 PYTHONPATH=src timeout "$l" \
     compute-sanitizer --tool "$3" --error-exitcode 1 python3 "benchmarks/sanitize_$2.py" > "$R/sanitizer_$3_$1.log" 2>&1
   echo "$3 $1 exit $? at $(elapsed) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/sanitizer_$3_$1.log" | tail -n 1)")
  pack
}
sanitize rmsnorm_keep2 rms_norm racecheck 0 & sanitize rmsnorm_keep2 rms_norm memcheck $g1 & wait
echo "done at $(elapsed) s"; pack
