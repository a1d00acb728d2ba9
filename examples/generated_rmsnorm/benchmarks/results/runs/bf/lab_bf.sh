#!/usr/bin/env bash
# Lab BF (issue 11), session 50 (2026-11-30): one call on two H200s (nvidia-h200-x2), carrying .gpu
# (`scaffold gpu-bundle .gpu` of main, no edits):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bf/lab_bf.sh   (timeout_s 400)
# variant_bf.py's `two` against main (base): the residual-add RMSNorm built both ways at once; the
# forward's CUDA tests of the two build (at most 60 s, GPU 0); then the device time of forward and
# forward+backward (../e/e_time.py) of base, two and base again, bfloat16 on GPU 0 and float16 on
# GPU 1, at the table's shapes and 16384 x 6144. Limit 360 s: no timing starts with under 50 s left.
# Results in $OUT/res_bf.tgz: `mkdir -p bf/bf && tar xzf res_bf.tgz -C bf/bf --strip-components=1` in
# runs/, add console.txt, then `python3 lab_summary.py bf/bf base two > bf/summary_bf.txt`.
. "$(dirname "$0")/../call_lib.sh" bf
lab_start  # limit, gpus, L (call_lib.sh)
limit=360
[ "$gpus" -gt 1 ] || { echo "lab BF wants two GPUs"; exit 3; }
declare -A LAB_EDITS=([base]="" [two]="bf:two")
lab_builds fused_add_rms_norm "base two"
K="not cpu and (forward or cuda_shapes or large_shapes or misaligned or far or normalized_as_rounded or non_contiguous or cuda_graph or view_with_offset or cluster or 2_31)"
lab_tests fused_add_rms_norm_two 0 "$K" 150; pack
SHAPES=8192x8192,32768x4096,16384x6144,4096x16384,1024x65536,8192x4095,4096x1024
lab_time_runs 0 bfloat16 bfloat16 "$SHAPES" fused_add_rms_norm "base two base" &
lab_time_runs 1 float16 float16 "$SHAPES" fused_add_rms_norm "base two base" &
wait
echo "done at $(elapsed) s"; pack
