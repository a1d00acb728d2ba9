#!/usr/bin/env bash
# Lab CG (issue 11), session 62 (2026-12-01): one call on one H200, carrying .gpu/layer_norm and
# .gpu/commit.txt (`scaffold gpu-bundle .gpu` of main; all of .gpu passes the tool's 64 MiB with the
# working tree), timeout_s at most what is left (about 220 s of command):
#   LIMIT=300 bash examples/generated_rmsnorm/benchmarks/results/runs/cg/lab_cg.sh
# Whether LayerNorm's 16-bit forwards at 4096 x 1024 gain from rows of a warp taking their mean and
# squared deviations by two butterflies of sums (cg/variant_cg.py's wsum) instead of Moments'
# combinations. LayerNorm's project built as base (main) and wsum at once; on GPU 0 the benchmark
# without torch.compile, every dtype: base, wsum and base again. None starts with under 40 s of the
# limit (LIMIT, default 580 s) left. Results in $OUT/res_cg.tgz: `mkdir -p cg/cg && tar xzf
# res_cg.tgz -C cg/cg --strip-components=1` in runs/, add console.txt; then `python3 compare_cg.py >
# compare_cg.txt` in runs/cg/. Outcomes: the runs README's `cg/` entry.
. "$(dirname "$0")/../call_lib.sh" cg
lab_start  # limit, gpus, L (call_lib.sh)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab CG wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="" [wsum]="cg:wsum")
declare -A OPS=([layer_norm]=layer_norm)
lab_builds layer_norm "base wsum"
for b in base wsum base; do lab_bench layer_norm "$b"; done
echo "done at $(elapsed) s"; pack
