#!/usr/bin/env bash
# Lab CH (issue 11; prepared in session 62, run in session 63, 2026-12-01): one call on one H200, carrying
# .gpu/layer_norm, .gpu/rmsnorm and .gpu/commit.txt (`scaffold gpu-bundle .gpu` of main; all of .gpu
# passes the tool's 64 MiB with the working tree), timeout_s 600, about 500 s of command:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/ch/lab_ch.sh
# Whether LayerNorm's and RMSNorm's 16-bit forwards at 4096 x 1024 gain from rows of a warp in
# blocks of one warp (ch/variant_ch.py's b32) instead of four. Both projects built as base (main)
# and b32 at once; on GPU 0 each one's benchmark without torch.compile, every dtype: base, b32 and
# base again; then ch/time_modes.py (one forward call's device time four ways, ours and torch.compile's,
# at 4096 x 1024 in bfloat16 and float16) in LayerNorm's base and b32 builds and RMSNorm's base, in
# that order. None starts with under 40 s of the limit (LIMIT, default 580 s) left. Results in
# $OUT/res_ch.tgz: `mkdir -p ch/ch && tar xzf res_ch.tgz -C ch/ch --strip-components=1` in runs/,
# add console.txt; then `python3 compare_ch.py > compare_ch.txt` in runs/ch/. Outcomes: the runs
# README's `ch/` entry.
. "$(dirname "$0")/../call_lib.sh" ch
lab_start  # limit (LIMIT), gpus (at least one), L (call_lib.sh)
declare -A LAB_EDITS=([base]="" [b32]="ch:b32")
declare -A OPS=([layer_norm]=layer_norm [rmsnorm]=rms_norm)
lab_builds "layer_norm rmsnorm" "base b32"
for p in layer_norm rmsnorm; do
  for b in base b32 base; do lab_bench "$p" "$b"; done
done
for pb in layer_norm:base layer_norm:b32 rmsnorm:base; do
  P=${pb%%:*} lab_step "modes $pb" "${pb##*:}" sh -c 'PYTHONPATH=src python3 "$0" "$1" 4096 1024 bfloat16 float16 \
    > "$2" 2>&1' "$G/time_modes.py" "${OPS[${pb%%:*}]}" "$R/modes_${pb%%:*}_${pb##*:}.txt"
done
echo "done at $(elapsed) s"; pack
