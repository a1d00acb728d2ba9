#!/usr/bin/env bash
# Lab AT4 (issue 11), prepared and run in session 44 (2026-11-30): one call on two H200s of one host
# (nvidia-h200-x2), carrying .gpu (`scaffold gpu-bundle .gpu` of main):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/at/lab_at4.sh
# Two questions lab AT3 left. (1) keep3 (variant_at.py keep3: keep3.diff): the workspace-free
# backward with one grid barrier. The blocks divide the columns (params x N; the most blocks that do,
# down to 3/4 of backward_groups'), and each block's share of every row group's sums goes to the
# kept rows of the block's own groups; after the barrier each block adds only its own store (loads
# issued together, no branch between them), writes its columns of grad_weight, then its kept rows
# over that store. Builds of RMSNorm, the residual-add RMSNorm and LayerNorm (float32 only keeps
# rows there) with keep3; their backward's CUDA tests and at4_check.py (keep3's cases against
# float64, twice the same bits, whether the kept rows applied, grad_x's bits as the workspace's) on
# one GPU; on the other at_streams.py on RMSNorm's keep3, then memcheck and racecheck of its
# sanitizer workload under ROW_NORM_BACKWARD_GROUPS=8 (so that its staged cases keep rows).
# (2) The backward's row groups a multiprocessor: base (main) of all four norms uncapped and under
# ROW_NORM_BACKWARD_GROUPS=396, 264 and 132 (3, 2 and 1 a multiprocessor of the H200's 132), where
# lab AT3 had half the groups faster in bfloat16 at two shapes. Timings (../e/e_time.py; B_PEAK=1
# for base and keep3): base, keep3, g264, g132, g396, base again (RMSNorm also keep3_g and keep3_h:
# keep3 under 264 and 132; the residual-add LayerNorm no keep3), bfloat16 on one GPU and float32 on
# the other, at 32768 x 4096, 8192 x 8192, 4096 x 16384, 1024 x 65536, 4096 x 1024 and 8192 x 5120.
# Results in $OUT/res_at4.tgz: unpack with `mkdir -p at4 && tar xzf res_at4.tgz -C at4
# --strip-components=1` in runs/at/, add console.txt, then `python3 summary_at.py at4
# g396,g264,g132,keep3,keep3_g,keep3_h > summary_at4.txt`.
. "$(dirname "$0")/../call_lib.sh" at4
lab_start  # limit, gpus, L (call_lib.sh)
limit=540
declare -A LAB_EDITS=([base]="" [keep3]="at:keep3")
# (the residual-add LayerNorm's keep3 is built, at no cost in time beside the others, not run)
lab_builds "rmsnorm fused_add_rms_norm layer_norm fused_add_layer_norm" "base keep3"
K="not cpu and (forward_and_backward_match_reference or cuda_shapes or large_shapes or backward_with_few_row_groups or backward_is_deterministic or cuda_graph or stages or shared_memory or misaligned or float32_parameters)"
g1=1; [ "$gpus" -gt 1 ] || g1=0
check() {
  (cd "$L/$1" && CUDA_VISIBLE_DEVICES=0 timeout 120 python3 "$G/at4_check.py" "$2" > "$R/check_$1.log" 2>&1
   echo "check $1 exit $? at $(elapsed) s: $(tail -n 2 "$R/check_$1.log" | tr '\n' ' ')")
}
(for p in rmsnorm fused_add_rms_norm layer_norm; do lab_tests "${p}_keep3" 0 "$K" 120; check "${p}_keep3" "${OP[$p]}"; done) &
( (cd "$L/rmsnorm_keep3" && CUDA_VISIBLE_DEVICES=$g1 timeout 90 python3 "$G/at_streams.py" rms_norm > "$R/streams_rmsnorm_keep3.log" 2>&1
  echo "streams rmsnorm_keep3 exit $? at $(elapsed) s: $(tail -n 1 "$R/streams_rmsnorm_keep3.log")")
 ROW_NORM_BACKWARD_GROUPS=8 lab_sanitize rmsnorm_keep3 rms_norm memcheck $g1
 ROW_NORM_BACKWARD_GROUPS=8 lab_sanitize rmsnorm_keep3 rms_norm racecheck $g1) & wait; pack
for c in 396 264 132; do LAB_BUILD[g$c]=base; LAB_ENV[g$c]="ROW_NORM_BACKWARD_GROUPS=$c"; done
LAB_BUILD[keep3_g]=keep3; LAB_ENV[keep3_g]="ROW_NORM_BACKWARD_GROUPS=264"
LAB_BUILD[keep3_h]=keep3; LAB_ENV[keep3_h]="ROW_NORM_BACKWARD_GROUPS=132"
# the peak memory (B_PEAK) only where it differs from base's by more than the workspace's size
LAB_ENV[base]="B_PEAK=1"; LAB_ENV[keep3]="B_PEAK=1"
SHAPES=32768x4096,8192x8192,4096x16384,1024x65536,4096x1024,8192x5120
time_dtype() {  # GPU DTYPE: the most wanted runs first (none starts with under 50 s of the limit left)
  lab_time_runs "$1" "$2" "$2" "$SHAPES" rmsnorm "base keep3 g264 g132 g396 keep3_g keep3_h base"
  lab_time_runs "$1" "$2" "$2" "$SHAPES" "fused_add_rms_norm layer_norm" "base keep3 g264 g132 g396 base"
  lab_time_runs "$1" "$2" "$2" "$SHAPES" fused_add_layer_norm "base g264 g132 g396 base"
}
if [ "$gpus" -gt 1 ]; then
  time_dtype 0 bfloat16 & time_dtype 1 float32 & wait
else
  time_dtype 0 bfloat16; time_dtype 0 float32
fi
echo "done at $(elapsed) s"; pack
