#!/usr/bin/env bash
# Lab AS (issue 11), prepared in session 42 (2026-11-29) for a later session: one call on two H200s of
# one host (nvidia-h200-x2; about 330 s), carrying .gpu (`scaffold gpu-bundle .gpu` of main):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/as/lab_as.sh
# The forward of short rows held in registers (variant_as.py): LayerNorm's project built as base
# (main), pr, tp and pr+tp, the residual-add LayerNorm's as base and pr+tp, all at once; the CUDA tests
# of the forward of each variant build (LayerNorm's on one GPU, the residual-add LayerNorm's on the
# other); then the device time of forward and forward+backward (../e/e_time.py) of LayerNorm's base,
# pr, tp, prtp and base again, and of the residual-add LayerNorm's base, prtp and base again, the
# 16-bit dtypes on one GPU and float32 on the other, at 4096 x 1024, 16384 x 1024, 8192 x 4095,
# 32768 x 4096, 8192 x 8192 and 4096 x 16384 (1024 x 65536's kernels do not change). Results in
# $OUT/res_as.tgz: unpack with `mkdir -p as && tar xzf res_as.tgz -C as --strip-components=1` in
# runs/as/, add console.txt, then `python3 summary_as.py > summary.txt`. Limit 400 s: no timing
# starts with under 50 s left.
. "$(dirname "$0")/../call_lib.sh" as
lab_start  # limit, gpus, L (call_lib.sh)
limit=400
declare -A LAB_EDITS=([base]="" [pr]="as:pr" [tp]="as:tp" [prtp]="as:pr as:tp")
lab_builds "layer_norm" "base pr tp prtp" &
lab_builds "fused_add_layer_norm" "base prtp" & wait
# (lab_builds exits where an edit does not apply; here each runs in a subshell of its own)
grep -q "expected one match" "$R/patch.log" && { echo "an edit did not apply: stopping"; pack; exit 1; }
K="not cpu and (forward_and_backward_match_reference or cuda_shapes or large_shapes or forward_vectors or misaligned or far or eps_is_used or cuda_graph or float32_parameters)"
g1=1; [ "$gpus" -gt 1 ] || g1=0
(for b in layer_norm_pr layer_norm_tp layer_norm_prtp; do lab_tests $b 0 "$K" 150; done) &
lab_tests fused_add_layer_norm_prtp $g1 "$K" 150 & wait; pack
SHAPES=4096x1024,16384x1024,8192x4095,32768x4096,8192x8192,4096x16384
if [ "$gpus" -gt 1 ]; then
  (lab_time_runs 0 16bit bfloat16,float16 "$SHAPES" layer_norm "base pr tp prtp base"
   lab_time_runs 0 16bit bfloat16,float16 "$SHAPES" fused_add_layer_norm "base prtp base") &
  (lab_time_runs 1 float32 float32 "$SHAPES" layer_norm "base pr tp prtp base"
   lab_time_runs 1 float32 float32 "$SHAPES" fused_add_layer_norm "base prtp base") & wait
else
  lab_time_runs 0 all bfloat16,float16,float32 "$SHAPES" layer_norm "base pr tp prtp base"
  lab_time_runs 0 all bfloat16,float16,float32 "$SHAPES" fused_add_layer_norm "base prtp base"
fi
echo "done at $(elapsed) s"; pack
