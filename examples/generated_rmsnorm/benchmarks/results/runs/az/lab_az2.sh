#!/usr/bin/env bash
# Lab AZ2 (issue 11, prepared in session 47, 2026-11-30, for the next GPU session): keep5's cost at
# 8 to 32 rows a row group for each kept row, which lab AZ did not time (it had 7.8 and below; call
# AY's tables 15.5 and above, against another call's), to set kRowsPerKeptRow in
# template_keep6.diff (the runs README's az/ entry). On two H200s (nvidia-h200-x2), carrying .gpu of
# main with keep5 and without keep6 (no edits): RMSNorm (GPU 0) and the residual-add RMSNorm (GPU 1)
# built; device time and peak memory (../e/e_time.py, B_PEAK=1) of forward and forward+backward with
# the workspace (ROW_NORM_WORKSPACE=1, `base`), without (`keep`), with again: float32 at 2048 to 8192
# rows of 4096 and 1024 to 4096 of 8192 (264 and 132 row groups on an H200: 7.8 to 31 rows a kept
# row), bfloat16 at 4096 to 16384 rows of 4096 and 2048 to 8192 of 8192 (two kept rows: the same).
# Limit 400 s. Results in $OUT/res_az2.tgz: unpack into az2/, then, in runs/,
# `python3 az/ratio_az.py az2 > az/ratio_az2.txt`.
. "$(dirname "$0")/../call_lib.sh" az2
lab_start  # limit, gpus, L (call_lib.sh)
limit=400
grep -q "kept_rows" "$X/rmsnorm/csrc/row_norm/cuda.cuh" || { echo "this .gpu has no keep5"; exit 3; }
grep -q "kRowsPerKeptRow" "$X/rmsnorm/csrc/row_norm/cuda.cuh" && { echo "this .gpu has keep6: bundle main without it"; exit 3; }
[ "$gpus" -gt 1 ] || { echo "lab AZ2 wants two GPUs"; exit 3; }
declare -A LAB_EDITS=([keep]="")
lab_builds "rmsnorm fused_add_rms_norm" keep
LAB_BUILD[base]=keep; LAB_ENV[base]="ROW_NORM_WORKSPACE=1 B_PEAK=1"; LAB_ENV[keep]="B_PEAK=1"
F=2048x4096,3072x4096,4096x4096,6144x4096,8192x4096,1024x8192,1536x8192,2048x8192,3072x8192,4096x8192
B=4096x4096,6144x4096,8192x4096,12288x4096,16384x4096,2048x8192,3072x8192,4096x8192,6144x8192,8192x8192
(lab_time_runs 0 f32 float32 $F rmsnorm "base keep base"
 lab_time_runs 0 bf16 bfloat16 $B rmsnorm "base keep base") &
(lab_time_runs 1 f32 float32 $F fused_add_rms_norm "base keep base"
 lab_time_runs 1 bf16 bfloat16 $B fused_add_rms_norm "base keep base") &
wait
echo "done at $(elapsed) s"; pack
