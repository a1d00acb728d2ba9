#!/usr/bin/env bash
# Lab CC (issue 11), prepared in session 61 (2026-12-01): one call on one H200, carrying .gpu
# (`scaffold gpu-bundle .gpu` of main), timeout_s 600, about 300 s of command (lab CA's six
# builds and six benchmarks took 325 s; this one builds four):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/cc/lab_cc.sh
# Whether the LayerNorms' 16-bit forwards at 4096 x 1024, where torch.compile's took 0.88 and 0.90 of
# ours in calls CB's tables, gain from weight and bias fetched into L1 before the row's reduction, in
# rows of at most four vectors a thread (cc/variant_cc.py's pfl1; RMSNorm's kernels read theirs
# into registers first and do not change). The residual-add LayerNorm's and LayerNorm's projects
# built twice each at once: base (main) and pfl1; then on GPU 0 the benchmark without
# torch.compile, every dtype: each project's base, pfl1 and base again. None
# starts with under 40 s of the limit (580 s; LIMIT=SECONDS for less) left. Results in
# $OUT/res_cc.tgz: `mkdir -p cc/cc && tar xzf res_cc.tgz -C cc/cc --strip-components=1` in runs/,
# add console.txt; then `python3 compare_cc.py > compare_cc.txt` in runs/cc/. What each outcome
# would mean: the runs README's `cc/` entry.
. "$(dirname "$0")/../call_lib.sh" cc
lab_start  # limit, gpus, L (call_lib.sh)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab CC wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="" [pfl1]="cc:pfl1")
declare -A OPS=([fused_add_layer_norm]=fused_add_layer_norm [layer_norm]=layer_norm)
lab_builds "fused_add_layer_norm layer_norm" "base pfl1"
for p in layer_norm fused_add_layer_norm; do
  for b in base pfl1 base; do lab_bench "$p" "$b"; done
done
echo "done at $(elapsed) s"; pack
