#!/usr/bin/env bash
# Lab CF (issue 11), session 62 (2026-12-01): one call on one H200, carrying .gpu/layer_norm and
# .gpu/commit.txt (`scaffold gpu-bundle .gpu` of main; all of .gpu passed the tool's 64 MiB with the
# working tree), timeout_s at most what is left (about 300 s of command):
#   LIMIT=450 bash examples/generated_rmsnorm/benchmarks/results/runs/cf/lab_cf.sh
# Whether LayerNorm's 16-bit forwards at 4096 x 1024 gain from row indices by a mask and shifts
# instead of forward_rows' divisions by row_threads (cf/variant_cf.py's nodiv). LayerNorm's project
# built as base (main) and nodiv at once; on GPU 0 the benchmark without torch.compile, every dtype:
# base, nodiv and base again; then Nsight Compute (as lab CD: cd/ncu_forward.py, --set full) of
# base's and torch.compile's bfloat16 forwards at 4096 x 1024 with a report each, exported per SASS
# instruction (executed instructions, warp stall samples: ncu --page source --print-source sass).
# None starts with under 40 s of the limit (LIMIT, default 580 s) left. Results in $OUT/res_cf.tgz:
# `mkdir -p cf/cf && tar xzf res_cf.tgz -C cf/cf --strip-components=1` in runs/, add console.txt;
# then `python3 compare_cf.py > compare_cf.txt` in runs/cf/. Outcomes: the runs README's `cf/` entry.
. "$(dirname "$0")/../call_lib.sh" cf
lab_start  # limit, gpus, L (call_lib.sh)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab CF wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="" [nodiv]="cf:nodiv")
declare -A OPS=([layer_norm]=layer_norm)
lab_builds layer_norm "base nodiv"
P=layer_norm
for b in base nodiv base; do lab_bench layer_norm "$b"; done
for impl in ours compile; do
  name=layer_norm_bfloat16_4096x1024_$impl
  lab_step "ncu $impl" base sh -c "TORCHINDUCTOR_CACHE_DIR=$L/inductor PYTHONPATH=src timeout 120 ncu \
    --clock-control none --nvtx --nvtx-include profiled/ --set full --import-source no -o $R/$name \
    python3 $G/../cd/ncu_forward.py layer_norm bfloat16 4096 1024 $impl > $R/$name.log 2>&1 && \
    ncu --import $R/$name.ncu-rep --page source --csv --print-source sass > $R/${name}_sass.csv 2>> $R/$name.log"
done
echo "done at $(elapsed) s"; pack
