#!/usr/bin/env bash
# Lab AT7 (issue 11), prepared and run in session 44 (2026-11-30): one call on two H200s of one host
# (nvidia-h200-x2), carrying .gpu (`scaffold gpu-bundle .gpu` of main):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/at/lab_at7.sh
# Whether half the backward's blocks a multiprocessor (variant_at.py halve: halve.diff, under
# ROW_NORM_AT_HALVE=1) speeds the uncentered norms' 16-bit backward beyond the shapes of lab AT4's
# sweep. Builds of RMSNorm and the residual-add RMSNorm with halve; the device time (../e/e_time.py,
# each case checked against float64) of base (the variable unset: main's kernels), halve and base
# again, bfloat16 on one GPU and float16 on the other, at 32768 x 4096, 8192 x 8192, 8192 x 5120,
# 16384 x 4096, 65536 x 2048, 16384 x 6144, 4096 x 8192, 2048 x 8192, 16384 x 3072 and 4096 x 1024
# (one vector a thread: halve does not apply, a control). Results in $OUT/res_at7.tgz: unpack with
# `mkdir -p at7 && tar xzf res_at7.tgz -C at7 --strip-components=1` in runs/at/, add console.txt,
# then `python3 summary_at.py at7 halve > summary_at7.txt`.
. "$(dirname "$0")/../call_lib.sh" at7
lab_start  # limit, gpus, L (call_lib.sh)
limit=280
declare -A LAB_EDITS=([halve]="at:halve")
lab_builds "rmsnorm fused_add_rms_norm" "halve"
LAB_BUILD[base]=halve
LAB_ENV[halve]="ROW_NORM_AT_HALVE=1"
SHAPES=32768x4096,8192x8192,8192x5120,16384x4096,65536x2048,16384x6144,4096x8192,2048x8192,16384x3072,4096x1024
RUNS="base halve base"
if [ "$gpus" -gt 1 ]; then
  lab_time_runs 0 bfloat16 bfloat16 "$SHAPES" "rmsnorm fused_add_rms_norm" "$RUNS" &
  lab_time_runs 1 float16 float16 "$SHAPES" "rmsnorm fused_add_rms_norm" "$RUNS" & wait
else
  lab_time_runs 0 all bfloat16,float16 "$SHAPES" "rmsnorm fused_add_rms_norm" "$RUNS"
fi
echo "done at $(elapsed) s"; pack
