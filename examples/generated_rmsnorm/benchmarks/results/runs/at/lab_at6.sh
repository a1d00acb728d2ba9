#!/usr/bin/env bash
# Lab AT6 (issue 11), prepared and run in session 44 (2026-11-30): one call on two H200s of one host
# (nvidia-h200-x2), carrying .gpu (`scaffold gpu-bundle .gpu` of main):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/at/lab_at6.sh
# keep4 (variant_at.py keep4: keep4.diff): keep2's layout (each row group writes its sums into its
# own kept rows, contiguous; no divisor of the columns, every resident block) with a block sum like
# keep3's: block b adds its share of the columns' 16-byte units over every group, kBatch loads issued
# together, the subsets' totals by a fixed tree (shuffles, then the warps in order); then the second
# barrier and the kept rows. Lab AT5 had keep3's scattered writes of the sums at 10 to 16 us of
# bfloat16's forward+backward, and keep2's own-row writes cost less than main's workspace (lab AT3's
# "rest"). Builds of RMSNorm base, keep3 and keep4; keep4's backward CUDA tests and at4_check.py on
# one GPU, on the other at_streams.py, then memcheck and racecheck of its sanitizer workload under
# ROW_NORM_BACKWARD_GROUPS=8; then the device time (../e/e_time.py; B_PEAK=1 for base, keep3 and
# keep4) of base, keep4, keep3, keep4_g and keep4_h (keep4 under ROW_NORM_BACKWARD_GROUPS=264 and
# 132) and base again, bfloat16 on one GPU and float32 on the other, at 32768 x 4096, 8192 x 8192,
# 4096 x 16384, 4096 x 1024 and 8192 x 5120. Results in $OUT/res_at6.tgz: unpack with `mkdir -p at6
# && tar xzf res_at6.tgz -C at6 --strip-components=1` in runs/at/, add console.txt, then
# `python3 summary_at.py at6 keep4,keep3,keep4_g,keep4_h > summary_at6.txt`.
. "$(dirname "$0")/../call_lib.sh" at6
lab_start  # limit, gpus, L (call_lib.sh)
limit=420
declare -A LAB_EDITS=([base]="" [keep3]="at:keep3" [keep4]="at:keep4")
lab_builds rmsnorm "base keep3 keep4"
K="not cpu and (forward_and_backward_match_reference or cuda_shapes or large_shapes or backward_with_few_row_groups or backward_is_deterministic or cuda_graph or stages or shared_memory or misaligned or float32_parameters)"
g1=1; [ "$gpus" -gt 1 ] || g1=0
(lab_tests rmsnorm_keep4 0 "$K" 120
 (cd "$L/rmsnorm_keep4" && CUDA_VISIBLE_DEVICES=0 timeout 120 python3 "$G/at4_check.py" rms_norm > "$R/check_rmsnorm_keep4.log" 2>&1
  echo "check rmsnorm_keep4 exit $? at $(elapsed) s: $(tail -n 2 "$R/check_rmsnorm_keep4.log" | tr '\n' ' ')")) &
( (cd "$L/rmsnorm_keep4" && CUDA_VISIBLE_DEVICES=$g1 timeout 90 python3 "$G/at_streams.py" rms_norm > "$R/streams_rmsnorm_keep4.log" 2>&1
  echo "streams rmsnorm_keep4 exit $? at $(elapsed) s: $(tail -n 1 "$R/streams_rmsnorm_keep4.log")")
 ROW_NORM_BACKWARD_GROUPS=8 lab_sanitize rmsnorm_keep4 rms_norm memcheck $g1
 ROW_NORM_BACKWARD_GROUPS=8 lab_sanitize rmsnorm_keep4 rms_norm racecheck $g1) & wait; pack
LAB_ENV[base]="B_PEAK=1"; LAB_ENV[keep3]="B_PEAK=1"; LAB_ENV[keep4]="B_PEAK=1"
LAB_BUILD[keep4_g]=keep4; LAB_ENV[keep4_g]="ROW_NORM_BACKWARD_GROUPS=264"
LAB_BUILD[keep4_h]=keep4; LAB_ENV[keep4_h]="ROW_NORM_BACKWARD_GROUPS=132"
SHAPES=32768x4096,8192x8192,4096x16384,4096x1024,8192x5120
RUNS="base keep4 keep3 keep4_g keep4_h base"
if [ "$gpus" -gt 1 ]; then
  lab_time_runs 0 bfloat16 bfloat16 "$SHAPES" rmsnorm "$RUNS" &
  lab_time_runs 1 float32 float32 "$SHAPES" rmsnorm "$RUNS" & wait
else
  lab_time_runs 0 all bfloat16,float32 "$SHAPES" rmsnorm "$RUNS"
fi
echo "done at $(elapsed) s"; pack
