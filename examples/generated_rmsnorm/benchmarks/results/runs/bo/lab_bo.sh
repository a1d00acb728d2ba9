#!/usr/bin/env bash
# Lab BO (issue 11), prepared in session 54 (2026-12-01, no device time left to it) for the next
# session: one call on two H200s (nvidia-h200-x2; or one, in turn: below), carrying .gpu, a fresh
# `scaffold gpu-bundle .gpu` of the commit that applies ../bm/template_change.diff (the LayerNorm, the
# residual-add LayerNorm and the RMSNorm projects at least), timeout_s 600:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bo/lab_bo.sh
# Variant x3 (variant_bo.py) against that commit's kernels (base), in the three projects, all six
# builds at once: the backward's exchange waiting at the block's scope (analysis BK's C3: no L1
# invalidation after each row's wait) and the staged forward's cluster sums by stores into the peers'
# shared memory, without a cluster barrier a row or before a block leaves (as QuACK's forward). The
# two touch other kernels (the backward's, the forward's), so x3's backward time is C3's and its
# forward time the forward change's. Then, per GPU in turn (GPU 0: LayerNorm, then RMSNorm; GPU 1:
# the residual-add LayerNorm): each build's outputs and gradients digested (grads_bo.py; bfloat16,
# float16, float32 at 1024 x 65536, 2048 x 32768, 300 x 65536, massive-activation and far rows),
# x3's compared with base's (compare_bo.py: both edits change synchronization only, so x3 must be
# bitwise equal); x3's CUDA tests of the forward's and backward's clusters and stages (at most 60 s
# each); the device time of forward and forward+backward (../e/e_time.py) of base, x3 and base again
# in bfloat16, float16 and float32 at 1024 x 65536, 2048 x 32768 (clustered) and 4096 x 16384 (not:
# the control); then memcheck of RMSNorm's x3 (GPU 0) and of the residual-add LayerNorm's x3 and
# racecheck of LayerNorm's x3 (GPU 1; at most 60 and 120 s); and, after the digests, on GPU 0, base's
# float32 error against float64 beside torch's where a row's first element lies 0 to 16 standard
# deviations off its mean (../../cpu/labs/shift_accuracy.py; about 10 s). Limit 580 s: no timing starts with
# under 50 s left. About 370 s of command by the timings of lab BK (six builds in 106 s, a timing
# run of two dtypes and three shapes in about 7 s) and the suites' sanitizers (LayerNorm's racecheck
# 106 s in call BH2). Results in $OUT/res_bo.tgz: `mkdir -p bo/bo && tar xzf res_bo.tgz -C bo/bo
# --strip-components=1` in runs/, add console.txt, then `python3 lab_summary.py bo/bo base x3 >
# bo/summary_bo.txt`. What to read from it, and what follows, is in the runs README's `bo/` entry.
. "$(dirname "$0")/../call_lib.sh" bo
lab_start  # limit, gpus, L (call_lib.sh)
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab BO wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="" [x3]="bo:x3")
lab_builds "layer_norm fused_add_layer_norm rmsnorm" "base x3"
grads() {  # grads PROJECT GPU: both builds' digests at once, then compared
  local v
  for v in base x3; do
    (cd "$L/$1_$v" && CUDA_VISIBLE_DEVICES=$2 timeout 90 python3 "$G/grads_bo.py" "${OP[$1]}" "$R/grads_$1_$v.json" \
       > "$R/grads_$1_$v.log" 2>&1
     echo "grads $1 $v exit $? at $(elapsed) s") &
  done
  wait
  python3 "$G/compare_bo.py" "$R/grads_$1_base.json" "$R/grads_$1_x3.json" > "$R/compare_$1_x3.txt" 2>&1
  echo "compare $1 x3: $(head -n 1 "$R/compare_$1_x3.txt")"
}
K="not cpu and (staged or cluster or backward or far or forward_and_backward_match_reference or gradients)"
shift_accuracy() {
  # The CUDA kernels' float32 error where a row's first element lies off its mean, beside torch's
  # (the CPU loops' lab, ../../cpu/labs/shift_accuracy.py, whose loops no longer sum about it).
  (cd "$L/layer_norm_base" && CUDA_VISIBLE_DEVICES=0 PYTHONPATH=src timeout 60 python3 \
     "$G/../../cpu/labs/shift_accuracy.py" example_layer_norm cuda > "$R/shift_accuracy_cuda.txt" 2>&1
   echo "shift accuracy (cuda) exit $? at $(elapsed) s")
}
gpu0() {
  grads layer_norm 0; grads rmsnorm 0; pack
  shift_accuracy
  lab_tests layer_norm_x3 0 "$K" 150; lab_tests rmsnorm_x3 0 "$K" 150; pack
  lab_time_runs 0 all bfloat16,float16,float32 "$SHAPES" "layer_norm rmsnorm" "base x3 base"
  lab_sanitize rmsnorm_x3 rms_norm memcheck 0 60
}
gpu1() {
  grads fused_add_layer_norm 1; pack
  lab_tests fused_add_layer_norm_x3 1 "$K" 150; pack
  lab_time_runs 1 all bfloat16,float16,float32 "$SHAPES" fused_add_layer_norm "base x3 base"
  lab_sanitize fused_add_layer_norm_x3 fused_add_layer_norm memcheck 1 60
  lab_sanitize layer_norm_x3 layer_norm racecheck 1 120
}
SHAPES=1024x65536,2048x32768,4096x16384
if [ "$gpus" -gt 1 ]; then
  gpu0 &
  gpu1 &
  wait
else
  # One GPU (session 55, 2026-12-01: only nvidia-h200 was lent): everything on it in turn, what
  # decides first (digests, device times), then the tests and sanitizers in what is left; a
  # sanitizer not run leaves its verdict to the landing's suites, which run them on every norm.
  for p in layer_norm rmsnorm fused_add_layer_norm; do grads $p 0; done; pack
  shift_accuracy
  lab_time_runs 0 all bfloat16,float16,float32 "$SHAPES" "layer_norm fused_add_layer_norm rmsnorm" "base x3 base"
  for p in layer_norm fused_add_layer_norm rmsnorm; do lab_tests ${p}_x3 0 "$K" 100; done; pack
  lab_sanitize layer_norm_x3 layer_norm racecheck 0 120
  lab_sanitize fused_add_layer_norm_x3 fused_add_layer_norm memcheck 0 60
  lab_sanitize rmsnorm_x3 rms_norm memcheck 0 60
fi
echo "done at $(elapsed) s"; pack
