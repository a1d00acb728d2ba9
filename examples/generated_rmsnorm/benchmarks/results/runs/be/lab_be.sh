#!/usr/bin/env bash
# Lab BE (issue 11), session 50 (2026-11-30): one call on two H200s (nvidia-h200-x2), carrying .gpu
# (`scaffold gpu-bundle .gpu` of main, no edits):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/be/lab_be.sh   (timeout_s 560)
# variant_be.py's variants against main (base): the residual-add RMSNorm built base, rule2 (the rule
# to land), noprefetch and latesum (two guesses at its 16-bit forward's gap to Liger-Kernel, on top
# of rule2); RMSNorm and LayerNorm built base, warpplain and small32 (two guesses at their gaps at
# 4096 x 1024); all at once. The forward's CUDA tests of each variant build (at most 60 s each, the
# residual-add RMSNorm's on GPU 0, the others on GPU 1); then the device time of forward and
# forward+backward (../e/e_time.py), the 16-bit dtypes on GPU 0 and float32 on GPU 1: the
# residual-add RMSNorm's builds at the table's shapes, base first and again last; then RMSNorm's and
# LayerNorm's at rows of a warp or fewer threads (4096 x 1024, 16384 x 1024, 4096 x 512,
# 65536 x 128), likewise. Limit 520 s: no timing starts with under 50 s left. Results in
# $OUT/res_be.tgz: `mkdir -p be/be && tar xzf res_be.tgz -C be/be --strip-components=1` in runs/,
# add console.txt, then `python3 lab_summary.py be/be base rule2 noprefetch latesum warpplain small32 > be/summary_be.txt`.
. "$(dirname "$0")/../call_lib.sh" be
lab_start  # limit, gpus, L (call_lib.sh)
limit=520
[ "$gpus" -gt 1 ] || { echo "lab BE wants two GPUs"; exit 3; }
declare -A LAB_EDITS=([base]="" [rule2]="be:rule2" [noprefetch]="be:noprefetch" [latesum]="be:latesum"
                      [warpplain]="be:warpplain" [small32]="be:small32")
# (lab_builds builds every project in every variant: the two groups are built beside each other)
lab_builds fused_add_rms_norm "base rule2 noprefetch latesum" &
lab_builds "rmsnorm layer_norm" "base warpplain small32" &
wait; pack
K="not cpu and (forward or cuda_shapes or large_shapes or misaligned or far or normalized_as_rounded or non_contiguous or cuda_graph or view_with_offset or cluster or 2_31 or small or narrow)"
(for b in rule2 noprefetch latesum; do lab_tests "fused_add_rms_norm_$b" 0 "$K" 250; pack; done) &
(for b in rmsnorm_warpplain rmsnorm_small32 layer_norm_warpplain layer_norm_small32; do lab_tests "$b" 1 "$K" 250; pack; done) &
wait; pack
TABLE=4096x16384,8192x8192,32768x4096,1024x65536,8192x4095,4096x1024
NARROW=4096x1024,16384x1024,4096x512,65536x128
(lab_time_runs 0 16bit bfloat16,float16 "$TABLE" fused_add_rms_norm "base rule2 noprefetch latesum base"
 lab_time_runs 0 16bit bfloat16,float16 "$NARROW" "rmsnorm layer_norm" "base warpplain small32 base") &
(lab_time_runs 1 float32 float32 "$TABLE" fused_add_rms_norm "base rule2 noprefetch latesum base"
 lab_time_runs 1 float32 float32 "$NARROW" "rmsnorm layer_norm" "base warpplain small32 base") &
wait
echo "done at $(elapsed) s"; pack
