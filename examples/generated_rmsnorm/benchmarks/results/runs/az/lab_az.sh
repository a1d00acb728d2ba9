#!/usr/bin/env bash
# Lab AZ (issue 11, session 47, 2026-11-30): where keep5 (the backward without its float32 workspace,
# landed by call AY) loses to the workspace at few rows. Call AY's tables had RMSNorm's float32
# forward+backward at 16 x 4096 at 1.400 of call AW's device time, the residual-add RMSNorm's 1.306:
# there every row is a kept row. On two H200s (nvidia-h200-x2), carrying .gpu of the landed commit
# (no edits): RMSNorm, LayerNorm and the residual-add RMSNorm built; the device time and peak memory
# (../e/e_time.py, B_PEAK=1) of forward and forward+backward in float32 and bfloat16 over a sweep of
# row counts, with the workspace (ROW_NORM_WORKSPACE=1, `base`), without (`keep`), with again:
# RMSNorm on GPU 0, LayerNorm then the residual-add RMSNorm on GPU 1. Limit 400 s. Results in
# $OUT/res_az.tgz: unpack into az/, then `python3 ../au/summary_au.py ../az/az keep` in runs/au/.
. "$(dirname "$0")/../call_lib.sh" az
lab_start  # limit, gpus, L (call_lib.sh)
limit=400
grep -q "kept_rows" "$X/rmsnorm/csrc/row_norm/cuda.cuh" || { echo "this .gpu has no keep5"; exit 3; }
[ "$gpus" -gt 1 ] || { echo "lab AZ wants two GPUs"; exit 3; }
declare -A LAB_EDITS=([keep]="")
lab_builds "rmsnorm layer_norm fused_add_rms_norm" keep
LAB_BUILD[base]=keep; LAB_ENV[base]="ROW_NORM_WORKSPACE=1 B_PEAK=1"; LAB_ENV[keep]="B_PEAK=1"
S=16x4096,32x4096,64x4096,128x4096,256x4096,512x4096,1024x4096,2048x4096
S=$S,16x8192,64x8192,256x8192,1024x8192,16x16384,64x16384,256x16384,64x2048,512x2048
lab_time_runs 0 sweep float32,bfloat16 $S rmsnorm "base keep base" &
lab_time_runs 1 sweep float32,bfloat16 $S "layer_norm fused_add_rms_norm" "base keep base" &
wait
echo "done at $(elapsed) s"; pack
