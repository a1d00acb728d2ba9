#!/usr/bin/env bash
# Lab BR (issue 11), prepared in session 56 (2026-12-01) for a later session: one call on one H200
# (nvidia-h200; two GPUs do no harm: it takes GPU 0), carrying .gpu (`scaffold gpu-bundle .gpu` of
# main), timeout_s 600, about 550 s of command (LIMIT=SECONDS for less than 580; with less device
# time left than 580 s and the machine's start, LIMIT = what is left less about 40 s):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/br/lab_br.sh
# The CUDA forward's float32 error where a row holds an element far from its mean: variant_br.py's t3
# (each thread's shift the median of its first vector's first three elements), m3t (t3 and lab BP's
# m3, the row's origin the median of its first three) and s3t (t3, the origin the median of the row's
# first, middle and last elements, and so the backward's shift where it reads it from global memory),
# in the LayerNorm project and the residual-add LayerNorm's (base,
# t3, m3t, s3t each), all eight builds at once; then on GPU 0 in turn: each
# LayerNorm build's error beside torch's, the first element moved (../../cpu/labs/shift_accuracy.py)
# and one element 16 standard deviations off at six columns (far_column_accuracy.py), about 10 s
# each; the variants' CUDA tests of far rows and large elements (at most 60 s each, none started
# with under 120 s left); the device time of forward and forward+backward (../e/e_time.py) at 4096 x
# 1024, 8192 x 4095, 32768 x 4096, 8192 x 8192, 4096 x 16384 and 1024 x 65536 in bfloat16, float16
# and float32: base, s3t, m3t, t3 and base again in each project, after memcheck of LayerNorm's s3t
# (at most 60 s). No timing starts with under 50 s left.
# Results in $OUT/res_br.tgz: `mkdir -p br/br && tar xzf res_br.tgz -C br/br --strip-components=1`
# in runs/, add console.txt, then `python3 lab_summary.py br/br base t3 m3t s3t > br/summary_br.txt`.
# What decides, set before the run: the runs README's `br/` entry.
. "$(dirname "$0")/../call_lib.sh" br
lab_start  # limit, gpus, L (call_lib.sh)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab BR wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="" [t3]="br:t3" [m3t]="br:m3t" [s3t]="br:s3t")
lab_builds layer_norm "base t3 m3t s3t" &  # (eight builds at once: the two calls side by side)
lab_builds fused_add_layer_norm "base t3 m3t s3t" &
wait
for v in base t3 m3t s3t; do
  (cd "$L/layer_norm_$v" && CUDA_VISIBLE_DEVICES=0 PYTHONPATH=src timeout 60 python3 \
     "$G/../../cpu/labs/shift_accuracy.py" example_layer_norm cuda > "$R/shift_accuracy_cuda_$v.txt" 2>&1
   echo "shift accuracy $v exit $? at $(elapsed) s")
  (cd "$L/layer_norm_$v" && CUDA_VISIBLE_DEVICES=0 PYTHONPATH=src timeout 60 python3 \
     "$G/far_column_accuracy.py" example_layer_norm cuda > "$R/far_column_accuracy_$v.txt" 2>&1
   echo "far column accuracy $v exit $? at $(elapsed) s")
done
pack
K="not cpu and (far or large_element)"
for b in layer_norm_s3t layer_norm_m3t layer_norm_t3 fused_add_layer_norm_s3t fused_add_layer_norm_m3t \
  fused_add_layer_norm_t3; do lab_tests "$b" 0 "$K" 120; done
pack
SHAPES=4096x1024,8192x4095,32768x4096,8192x8192,4096x16384,1024x65536
lab_sanitize layer_norm_s3t layer_norm memcheck 0 60  # (before the timings: criterion 1 needs it)
lab_time_runs 0 all bfloat16,float16,float32 "$SHAPES" layer_norm "base s3t m3t t3 base"
lab_time_runs 0 all bfloat16,float16,float32 "$SHAPES" fused_add_layer_norm "base s3t m3t t3 base"
echo "done at $(elapsed) s"; pack
