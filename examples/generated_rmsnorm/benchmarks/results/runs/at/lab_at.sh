#!/usr/bin/env bash
# Lab AT (issue 11), session 43 (2026-11-30): one call on two H200s of one host (nvidia-h200-x2),
# carrying .gpu (`scaffold gpu-bundle .gpu` of main), in the device time labs AQ and AS left (about
# 970 s, so a limit of 560 s here):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/at/lab_at.sh
# The runs README's at/ design, a backward without the float32 workspace (variant_at.py's keep). Builds
# base (main) and keep of RMSNorm's, the residual-add RMSNorm's and LayerNorm's projects (LayerNorm's
# float32 alone takes keep: its 16-bit rows would need four kept rows, more than its two stages), all
# at once; the CUDA tests of the backward of each keep build; at_streams.py on the two RMSNorms' keep
# builds (calls beside other streams' kernels, the same bits as alone); the device time of forward
# and forward+backward with the peak memory of one forward+backward, ours and eager's (../e/e_time.py
# with B_PEAK=1) of base, keep and base again, the 16-bit dtypes on one GPU and float32 on the other,
# at 32768 x 4096, 8192 x 8192, 4096 x 16384, 1024 x 65536 and 8192 x 4095 (clustered and shifted rows:
# the workspace as before) and 4096 x 1024; then, with the time left, compute-sanitizer racecheck
# and memcheck of the two RMSNorms' keep builds' sanitizer workloads. Results in $OUT/res_at.tgz:
# unpack with `mkdir -p at && tar xzf res_at.tgz -C at --strip-components=1` in runs/at/, add
# console.txt, then `python3 summary_at.py > summary.txt`.
. "$(dirname "$0")/../call_lib.sh" at
lab_start  # limit, gpus, L (call_lib.sh)
limit=560
declare -A LAB_EDITS=([base]="" [keep]="at:keep")
PROJECTS="rmsnorm fused_add_rms_norm layer_norm"
lab_builds "$PROJECTS" "base keep"
K="not cpu and (forward_and_backward_match_reference or cuda_shapes or large_shapes or backward_with_few_row_groups or backward_is_deterministic or cuda_graph or stages or shared_memory or misaligned or without_grad_residual_out or float32_parameters)"
g1=1; [ "$gpus" -gt 1 ] || g1=0
(lab_tests rmsnorm_keep 0 "$K" 330; lab_tests layer_norm_keep 0 "$K" 330) &
lab_tests fused_add_rms_norm_keep $g1 "$K" 330 & wait; pack
streams() {  # streams BUILD OP GPU
  (cd "$L/$1" && CUDA_VISIBLE_DEVICES=$3 timeout 90 python3 "$G/at_streams.py" "$2" > "$R/streams_$1.log" 2>&1)
  echo "streams $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/streams_$1.log")"
}
streams rmsnorm_keep rms_norm 0 & streams fused_add_rms_norm_keep fused_add_rms_norm $g1 & wait; pack
export B_PEAK=1
SHAPES=32768x4096,8192x8192,4096x16384,1024x65536,8192x4095,4096x1024
if [ "$gpus" -gt 1 ]; then
  lab_time_runs 0 16bit bfloat16,float16 "$SHAPES" "$PROJECTS" "base keep base" &
  lab_time_runs 1 float32 float32 "$SHAPES" "$PROJECTS" "base keep base" & wait
else
  lab_time_runs 0 all bfloat16,float16,float32 "$SHAPES" "$PROJECTS" "base keep base"
fi
sanitize() {  # sanitize BUILD OP TOOL GPU: compute-sanitizer on the build's sanitizer workload
  local l=$(( $(lab_left) - 5 ))
  [ "$l" -gt 30 ] || { echo "$3 $1 not run: $(elapsed) s"; return; }
  (cd "$L/$1" && CUDA_VISIBLE_DEVICES=$4 PYTORCH_NO_CUDA_MEMORY_CACHING=1 PYTHONPATH=src timeout "$l" \
     compute-sanitizer --tool "$3" --error-exitcode 1 python3 "benchmarks/sanitize_$2.py" > "$R/sanitizer_$3_$1.log" 2>&1
   echo "$3 $1 exit $? at $(elapsed) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/sanitizer_$3_$1.log" | tail -n 1)")
  pack
}
(sanitize rmsnorm_keep rms_norm memcheck 0; sanitize rmsnorm_keep rms_norm racecheck 0) &
(sanitize fused_add_rms_norm_keep fused_add_rms_norm memcheck $g1; sanitize fused_add_rms_norm_keep fused_add_rms_norm racecheck $g1) &
wait
echo "done at $(elapsed) s"; pack
