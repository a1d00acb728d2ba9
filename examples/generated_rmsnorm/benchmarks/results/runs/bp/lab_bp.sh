#!/usr/bin/env bash
# Lab BP (issue 11), prepared in session 55 (2026-12-01) for a session after calls BN and BNZ landed
# (../bn/): one call on one H200 (nvidia-h200; two GPUs do no harm: it takes GPU 0), carrying .gpu, a
# fresh `scaffold gpu-bundle .gpu` of main with both landed, timeout_s 600:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bp/lab_bp.sh
# The CUDA forward's float32 error where a row's first element lies off its mean (lab BO,
# ../bo/bo/shift_accuracy_cuda.txt: y 2.7 times torch.nn's mean error at 3.9 standard deviations, 14
# times at 16, at 4000 x 1024): variant_bp.py's m3 (the forward sums about the median of the row's
# first three elements), mend (forward_rows mends a far row's mean in rows held in registers too) and
# both, against base, in the LayerNorm project, and both in the residual-add LayerNorm's. All six
# builds at once; then on GPU 0 in turn: each LayerNorm build's error beside torch's
# (../../cpu/labs/shift_accuracy.py; about 10 s each); each variant's CUDA tests of far rows and
# large elements (at most 60 s each); the device time of forward and forward+backward (../e/e_time.py)
# at 4096 x 1024, 8192 x 4095, 32768 x 4096, 4096 x 16384 and 1024 x 65536 in bfloat16, float16 and
# float32, LayerNorm's base, m3, mend, both and base again, the residual-add LayerNorm's base, both
# and base again; memcheck of LayerNorm's both (60 s). Limit 580 s: no timing starts with under 50 s
# left. About 480 s of command by lab BO's steps. Results in $OUT/res_bp.tgz: `mkdir -p bp/bp && tar
# xzf res_bp.tgz -C bp/bp --strip-components=1` in runs/, add console.txt, then `python3
# lab_summary.py bp/bp base m3 mend both > bp/summary_bp.txt`. What decides, set before the run: the
# runs README's `bp/` entry.
. "$(dirname "$0")/../call_lib.sh" bp
lab_start  # limit, gpus, L (call_lib.sh)
# (From session 56 on: LIMIT=SECONDS for a call with less device time left than 580 s; run first
# in session 56 with what was left after call BN's suites, LIMIT=335: the steps after the limit are
# left, as each step's guard says.)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab BP wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="" [m3]="bp:m3" [mend]="bp:mend" [both]="bp:both")
lab_builds layer_norm "base m3 mend both" &  # (six builds at once: the two calls side by side)
lab_builds fused_add_layer_norm "base both" &
wait
for v in base m3 mend both; do
  (cd "$L/layer_norm_$v" && CUDA_VISIBLE_DEVICES=0 PYTHONPATH=src timeout 60 python3 \
     "$G/../../cpu/labs/shift_accuracy.py" example_layer_norm cuda > "$R/shift_accuracy_cuda_$v.txt" 2>&1
   echo "shift accuracy $v exit $? at $(elapsed) s")
done
pack
K="not cpu and (far or large_element)"
for b in layer_norm_m3 layer_norm_mend layer_norm_both fused_add_layer_norm_both; do lab_tests "$b" 0 "$K" 200; done
pack
SHAPES=4096x1024,8192x4095,32768x4096,4096x16384,1024x65536
lab_time_runs 0 all bfloat16,float16,float32 "$SHAPES" layer_norm "base m3 mend both base"
lab_time_runs 0 all bfloat16,float16,float32 "$SHAPES" fused_add_layer_norm "base both base"
lab_sanitize layer_norm_both layer_norm memcheck 0 60
echo "done at $(elapsed) s"; pack
