#!/usr/bin/env bash
# Lab AT5 (issue 11), prepared and run in session 44 (2026-11-30): one call on two H200s of one host
# (nvidia-h200-x2), carrying .gpu (`scaffold gpu-bundle .gpu` of main):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/at/lab_at5.sh
# Where keep3's time goes (lab AT4 had its backward 1.045 to 1.077 of base's at RMSNorm's bfloat16
# large shapes). variant_at.py's probe3 (probe3.diff) is keep3 with ROW_NORM_AT_LEAVE_OUT (a sum of 1:
# the block's sum, 2: the kept rows' writes, 4: the grid barrier, 8: the sums' writes; the results are
# then wrong, B_NOCHECK=1) and ROW_NORM_AT_DIVISOR_ONLY=1 (keep3's count of blocks, a divisor of the
# columns, on main's workspace and sum_rows_kernel). Builds of RMSNorm base and probe3; probe3's
# backward CUDA tests on one GPU and at4_check.py on the other; then the device time (../e/e_time.py;
# B_PEAK=1 for base, probe3 and d) of base, probe3, d (divisor only), b1, b3, b7, b15 (the steps
# left out in turn) and base again, bfloat16 on one GPU and float32 on the other, at 32768 x 4096,
# 8192 x 8192, 4096 x 16384, 4096 x 1024 and 8192 x 5120. Results in $OUT/res_at5.tgz: unpack with
# `mkdir -p at5 && tar xzf res_at5.tgz -C at5 --strip-components=1` in runs/at/, add console.txt,
# then `python3 summary_at.py at5 probe3,d,b1,b3,b7,b15 > summary_at5.txt`.
. "$(dirname "$0")/../call_lib.sh" at5
lab_start  # limit, gpus, L (call_lib.sh)
limit=400
declare -A LAB_EDITS=([base]="" [probe3]="at:probe3")
lab_builds rmsnorm "base probe3"
K="not cpu and (forward_and_backward_match_reference or cuda_shapes or large_shapes or backward_with_few_row_groups or backward_is_deterministic or cuda_graph or stages or shared_memory or misaligned or float32_parameters)"
g1=1; [ "$gpus" -gt 1 ] || g1=0
lab_tests rmsnorm_probe3 0 "$K" 120 &
(cd "$L/rmsnorm_probe3" && CUDA_VISIBLE_DEVICES=$g1 timeout 120 python3 "$G/at4_check.py" rms_norm > "$R/check_rmsnorm_probe3.log" 2>&1
 echo "check rmsnorm_probe3 exit $? at $(elapsed) s: $(tail -n 2 "$R/check_rmsnorm_probe3.log" | tr '\n' ' ')") & wait; pack
LAB_ENV[base]="B_PEAK=1"; LAB_ENV[probe3]="B_PEAK=1"
LAB_BUILD[d]=probe3; LAB_ENV[d]="ROW_NORM_AT_DIVISOR_ONLY=1 B_PEAK=1"
for a in 1 3 7 15; do LAB_BUILD[b$a]=probe3; LAB_ENV[b$a]="ROW_NORM_AT_LEAVE_OUT=$a B_NOCHECK=1"; done
SHAPES=32768x4096,8192x8192,4096x16384,4096x1024,8192x5120
RUNS="base probe3 d b1 b3 b7 b15 base"
if [ "$gpus" -gt 1 ]; then
  lab_time_runs 0 bfloat16 bfloat16 "$SHAPES" rmsnorm "$RUNS" &
  lab_time_runs 1 float32 float32 "$SHAPES" rmsnorm "$RUNS" & wait
else
  lab_time_runs 0 all bfloat16,float32 "$SHAPES" rmsnorm "$RUNS"
fi
echo "done at $(elapsed) s"; pack
