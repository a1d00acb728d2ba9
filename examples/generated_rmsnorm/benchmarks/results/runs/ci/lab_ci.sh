#!/usr/bin/env bash
# Lab CI (issue 11), session 63 (2026-12-01): one call on one H200, carrying .gpu/layer_norm,
# .gpu/rmsnorm, .gpu/fused_add_layer_norm and .gpu/commit.txt (`scaffold gpu-bundle .gpu` of main),
# timeout_s 600, about 500 s of command:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/ci/lab_ci.sh
# Whether the norms' forwards at 4096 x 1024 gain from rows of one warp taking a kernel of their own
# (ci/variant_ci.py's wr). The three projects built as base (main) and wr at once; each wr build's
# whole test suite on GPU 0 (the kernel is new: its rows must be right before its times count);
# then each one's benchmark without torch.compile, every dtype, base, wr and base again: LayerNorm's
# and RMSNorm's, ch/time_modes.py in LayerNorm's wr build (lab CH's modes of base beside it), then
# the residual-add LayerNorm's (last: where the limit cuts it, compare_ci.py leaves it out). None starts with under 40 s of the limit (LIMIT, default
# 580 s) left. Results in $OUT/res_ci.tgz: `mkdir -p ci/ci && tar xzf res_ci.tgz -C ci/ci
# --strip-components=1` in runs/, add console.txt; then `python3 compare_ci.py > compare_ci.txt` in
# runs/ci/. Outcomes: the runs README's `ci/` entry.
. "$(dirname "$0")/../call_lib.sh" ci
lab_start  # limit (LIMIT), gpus (at least one), L (call_lib.sh)
declare -A LAB_EDITS=([base]="" [wr]="ci:wr")
declare -A OPS=([layer_norm]=layer_norm [rmsnorm]=rms_norm [fused_add_layer_norm]=fused_add_layer_norm)
lab_builds "layer_norm rmsnorm fused_add_layer_norm" "base wr"
for p in layer_norm rmsnorm fused_add_layer_norm; do
  P=$p lab_step "tests $p wr" wr sh -c 'python3 -m pytest tests -q -p no:cacheprovider > "$0" 2>&1; r=$?; tail -n 1 "$0"; exit $r' \
    "$R/tests_${p}_wr.log"
done
for p in layer_norm rmsnorm; do
  for b in base wr base; do lab_bench "$p" "$b"; done
done
P=layer_norm lab_step "modes layer_norm:wr" wr sh -c 'PYTHONPATH=src python3 "$0" layer_norm 4096 1024 bfloat16 float16 \
  > "$1" 2>&1' "$G/../ch/time_modes.py" "$R/modes_layer_norm_wr.txt"
for b in base wr base; do lab_bench fused_add_layer_norm "$b"; done
echo "done at $(elapsed) s"; pack
