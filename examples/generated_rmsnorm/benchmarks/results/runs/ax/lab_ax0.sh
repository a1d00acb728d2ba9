#!/usr/bin/env bash
# Lab AX0 (issue 11, session 46, 2026-11-30): the part of lab AX (lab_ax.sh) that fits the 322 s of
# device time call AW left, on two H200s of one host (nvidia-h200-x2), carrying .gpu made as
# lab_ax.sh's comment says (main with ../av/template_noshift.diff, now landed, and
# template_keep5.diff). keep5's first GPU run, RMSNorm only: its build; then at once, RMSNorm's
# tests of the workspace-free backward, of the CUDA graphs, streams and the backward (-k below; both
# GPUs visible, GPU 0 first) and, on GPU 1, bfloat16 device time and peak memory (../e/e_time.py,
# B_PEAK=1) with the workspace (ROW_NORM_WORKSPACE=1, `base`), without (`keep`), with again, at
# 32768 x 4096, 8192 x 8192 and 4096 x 16384; then racecheck of its sanitizer workload on GPU 1 where
# time is left. Limit 250 s. Results in $OUT/res_ax0.tgz: unpack into ax0/, then
# `python3 ../au/summary_au.py ax0 keep` as lab_ax.sh says for lab AX.
. "$(dirname "$0")/../call_lib.sh" ax0
lab_start  # limit, gpus, L (call_lib.sh)
limit=250
grep -q "kept_rows" "$X/rmsnorm/csrc/row_norm/cuda.cuh" || { echo "this .gpu has no keep5: see lab_ax.sh"; exit 3; }
[ "$gpus" -gt 1 ] || { echo "lab AX0 wants two GPUs"; exit 3; }
sha256sum "$G/template_keep5.diff" "$G/../av/template_noshift.diff" > "$R/diffs.sha256"
declare -A LAB_EDITS=([keep]="")
lab_builds rmsnorm keep
LAB_BUILD[base]=keep; LAB_ENV[base]="ROW_NORM_WORKSPACE=1 B_PEAK=1"; LAB_ENV[keep]="B_PEAK=1"
K="not cpu and (workspace or cuda_graph or stream or backward or second_device)"
(cd "$L/rmsnorm_keep" && CUDA_VISIBLE_DEVICES=0,1 timeout $(( $(lab_left) - 10 )) python3 -m pytest tests -q \
   -p no:cacheprovider -k "$K" > "$R/tests_rmsnorm.log" 2>&1
 echo "tests rmsnorm exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_rmsnorm.log")"; pack) &
(lab_time_runs 1 bf16 bfloat16 32768x4096,8192x8192,4096x16384 rmsnorm "base keep base"
 lab_sanitize rmsnorm_keep rms_norm racecheck 1) &
wait
echo "done at $(elapsed) s"; pack
