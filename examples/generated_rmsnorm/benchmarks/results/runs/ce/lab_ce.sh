#!/usr/bin/env bash
# Lab CE (issue 11), session 62 (2026-12-01): one call on one H200, carrying .gpu (`scaffold
# gpu-bundle .gpu` of main), timeout_s 600, about 300 s of command:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/ce/lab_ce.sh
# Whether LayerNorm's 16-bit forwards at 4096 x 1024, where torch.compile's took 0.877 and 0.899 of
# ours in call CB's tables, gain from reading a thread's weight and bias vectors all at once after
# the row's reduction instead of each vector's just before its arithmetic (ce/variant_ce.py's pw4;
# lab CD's SASS and Nsight Compute, cd/). LayerNorm's project built as base (main) and pw4 at once;
# on GPU 0 the SASS of both builds' 16-bit forward kernels of four vectors a thread (cuobjdump), then
# the benchmark without torch.compile, every dtype: base, pw4 and base again; then Nsight Compute of
# pw4's 16-bit forwards at 4096 x 1024 as lab CD ran ours (cd/ncu_forward.py). None starts with under
# 40 s of the limit (580 s) left. Results in $OUT/res_ce.tgz: `mkdir -p ce/ce && tar xzf res_ce.tgz
# -C ce/ce --strip-components=1` in runs/, add console.txt; then `python3 compare_ce.py >
# compare_ce.txt` in runs/ce/. What each outcome would mean: the runs README's `ce/` entry.
. "$(dirname "$0")/../call_lib.sh" ce
lab_start  # limit, gpus, L (call_lib.sh)
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab CE wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="" [pw4]="ce:pw4")
declare -A OPS=([layer_norm]=layer_norm)
lab_builds layer_norm "base pw4"
mkdir -p "$R/sass"
for b in base pw4; do
  for t in 8BFloat16 4Half; do
    so=$(ls "$L/layer_norm_$b"/src/*/_C*.so | head -1)
    cuobjdump -sass -fun "_ZN18example_layer_norm8row_norm4cuda14forward_kernelINS_5norms9LayerNormEN3c10${t}ES6_Li8ELi4ELb1ELb0EEEvPKT0_S9_PKT1_SC_PS7_SD_lliiiN2at10OpMathTypeIS7_E4typeE" \
      "$so" > "$R/sass/${b}_${t#?}.sass" 2>&1
    echo "sass $b $t: $(grep -c 'LDG' "$R/sass/${b}_${t#?}.sass") LDG lines"
  done
done
P=layer_norm
for b in base pw4 base; do lab_bench layer_norm "$b"; done
for dtype in bfloat16 float16; do
  lab_step "ncu pw4 $dtype" pw4 sh -c "PYTHONPATH=src timeout 120 ncu --clock-control none --nvtx \
    --nvtx-include profiled/ --set full --csv --page details python3 $G/../cd/ncu_forward.py layer_norm \
    $dtype 4096 1024 ours > $R/layer_norm_${dtype}_4096x1024_pw4.csv 2> $R/layer_norm_${dtype}_4096x1024_pw4.err"
done
echo "done at $(elapsed) s"; pack
