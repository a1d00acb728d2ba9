#!/usr/bin/env bash
# Lab BQ (issue 11), prepared in session 56 (2026-12-01) for a later session: one call on one H200
# (nvidia-h200; two GPUs do no harm: it takes GPU 0), carrying .gpu (`scaffold gpu-bundle .gpu` of
# main, whose kernel sources call BN landed), timeout_s 600, about 420 s of command:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bq/lab_bq.sh
# The one goal cell that call BN's tables miss, the residual-add LayerNorm's float32 forward at 4096 x
# 16384 (89.5% of the copy rate, goal 90): variant_bq.py's eight (its rows of eight vectors a thread
# load x and residual first, in every geometry, as lab BD's eight had them), eightb (the same in
# rows of more than a warp alone) and eightb2 (eightb within 64 registers a thread), against base, in
# the residual-add LayerNorm's project. The four builds at once; on GPU 0 in turn: the forward's CUDA
# tests of eightb, eightb2 and eight (at most 60 s each); the float32 device time of forward and
# forward+backward (../e/e_time.py) of base, eight, eightb, eightb2 and base again at 4096 x 16384, 8192 x 8192, 32768 x 4096, 1024 x 65536, 8192 x 4095, 4096 x 1024 and
# 16384 x 1024; memcheck of eightb and eightb2 (at most 60 s each). Limit 580 s (LIMIT=SECONDS for less): no timing
# starts with under 50 s left. Results in $OUT/res_bq.tgz: `mkdir -p bq/bq && tar xzf res_bq.tgz -C
# bq/bq --strip-components=1` in runs/, add console.txt, then `python3 lab_summary.py bq/bq base eight
# eightb eightb2 > bq/summary_bq.txt`. What decides, set before the run: the runs README's `bq/` entry.
. "$(dirname "$0")/../call_lib.sh" bq
lab_start  # limit, gpus, L (call_lib.sh)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab BQ wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="" [eight]="bq:eight" [eightb]="bq:eightb" [eightb2]="bq:eightb2")
lab_builds fused_add_layer_norm "base eight eightb eightb2"
K="not cpu and (forward or cuda_shapes or large_shapes or misaligned or far or normalized_as_rounded or non_contiguous or cuda_graph or view_with_offset or 2_31)"
for b in eightb eightb2 eight; do lab_tests "fused_add_layer_norm_$b" 0 "$K" 150; pack; done
SHAPES=4096x16384,8192x8192,32768x4096,1024x65536,8192x4095,4096x1024,16384x1024
lab_time_runs 0 float32 float32 "$SHAPES" fused_add_layer_norm "base eight eightb eightb2 base"
for b in eightb eightb2; do lab_sanitize "fused_add_layer_norm_$b" fused_add_layer_norm memcheck 0 60; done
echo "done at $(elapsed) s"; pack
