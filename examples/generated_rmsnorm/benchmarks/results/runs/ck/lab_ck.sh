#!/usr/bin/env bash
# Lab CK (issue 11), session 63 (2026-12-01): one call on one H200, carrying .gpu/layer_norm and
# .gpu/commit.txt (`scaffold gpu-bundle .gpu` of main), with what device time the session had left
# (about 250 s of command):
#   LIMIT=250 bash examples/generated_rmsnorm/benchmarks/results/runs/ck/lab_ck.sh
# Lab CJ's second run, of the narrowed form its results point to (cj/variant_cj.py's wr3: wr2, with
# 16-bit rows alone on blocks of one warp). LayerNorm built as base and wr3 at once; the benchmark
# without torch.compile, every dtype: base, wr3 and base again. No tests: wr3's kernel is wr2's and
# its two launches wr2's and wr2b's, whose tests passed in lab CJ. None starts with under 40 s of the
# limit left. Results in $OUT/res_ck.tgz: `mkdir -p ck/ck && tar xzf res_ck.tgz -C ck/ck
# --strip-components=1` in runs/, add console.txt; then `python3 compare_ck.py > compare_ck.txt` in
# runs/ck/. Outcomes: the runs README's `ck/` entry.
. "$(dirname "$0")/../call_lib.sh" ck
lab_start  # limit (LIMIT), gpus (at least one), L (call_lib.sh)
declare -A LAB_EDITS=([base]="" [wr3]="cj:wr3")
declare -A OPS=([layer_norm]=layer_norm)
lab_builds layer_norm "base wr3"
for b in base wr3 base; do lab_bench layer_norm "$b"; done
echo "done at $(elapsed) s"; pack
