#!/usr/bin/env bash
# Lab BC (issue 11), prepared in session 49 (2026-11-30) for a later session: one call on two H200s
# (nvidia-h200-x2), carrying .gpu (`scaffold gpu-bundle .gpu` of main, no edits):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bc/lab_bc.sh   (timeout_s 600)
# The residual-add norms' forward with its loads first (variant_bc.py: loads, loads4) against main
# (base), after lab BB0's SHORT run found the residual-add RMSNorm's forward reading each item of a
# row only after writing the previous item's sum (../bb0/ entry). The residual-add RMSNorm's and the
# residual-add LayerNorm's projects, each built three ways (base, loads, loads4; loads4 differs from
# loads in the residual-add LayerNorm alone: the residual-add RMSNorm's loads4 build is the same
# code as its loads, timed as a second measurement of it), all at once; the forward's CUDA tests of
# the residual-add RMSNorm's loads build (GPU 0) and of the residual-add LayerNorm's loads and
# loads4 builds (GPU 1), and compute-sanitizer memcheck of their sanitizer workloads (at most 120 s
# each); then the device time of forward and forward+backward (../e/e_time.py) of base, loads,
# loads4 and base again, in each project in turn, at the table's shapes, the 16-bit dtypes on GPU 0
# and float32 on GPU 1. A build whose tests fail is timed all the same (e_time.py checks each case
# against float64 first). Limit 580 s: no timing starts with under 50 s left. Results in
# $OUT/res_bc.tgz: `mkdir -p bc/bc && tar xzf res_bc.tgz -C bc/bc --strip-components=1` in runs/,
# add console.txt, then `python3 lab_summary.py bc/bc base loads loads4 > bc/summary_bc.txt`.
. "$(dirname "$0")/../call_lib.sh" bc
lab_start  # limit, gpus, L (call_lib.sh)
[ "$gpus" -gt 1 ] || { echo "lab BC wants two GPUs"; exit 3; }
declare -A LAB_EDITS=([base]="" [loads]="bc:loads" [loads4]="bc:loads4")
PROJECTS="fused_add_rms_norm fused_add_layer_norm"
lab_builds "$PROJECTS" "base loads loads4"
K="not cpu and (forward or cuda_shapes or large_shapes or misaligned or far or normalized_as_rounded or non_contiguous or cuda_graph or view_with_offset or cluster or 2_31)"
(lab_tests fused_add_rms_norm_loads 0 "$K" 250; pack
 lab_sanitize fused_add_rms_norm_loads fused_add_rms_norm memcheck 0 120) &
(for b in loads loads4; do lab_tests "fused_add_layer_norm_$b" 1 "$K" 250; pack; done
 lab_sanitize fused_add_layer_norm_loads4 fused_add_layer_norm memcheck 1 120) &
wait; pack
SHAPES=4096x16384,8192x8192,32768x4096,1024x65536,8192x4095,4096x1024
lab_time_runs 0 16bit bfloat16,float16 "$SHAPES" "$PROJECTS" "base loads loads4 base" &
lab_time_runs 1 float32 float32 "$SHAPES" "$PROJECTS" "base loads loads4 base" &
wait
echo "done at $(elapsed) s"; pack
