#!/usr/bin/env bash
# Lab CD (issue 11), session 62 (2026-12-01): one call on one H200, carrying .gpu (`scaffold
# gpu-bundle .gpu` of main), timeout_s at most what is left:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/cd/lab_cd.sh
# Lab CC's outcome 3 (its pfl1 did not help: cc/compare_cc.txt), so Nsight Compute 2025.3.1
# (--clock-control none, caches flushed before each kernel replay, --set full) of the forward kernel
# of ours and of torch.compile's, at 4096 x 1024 where torch.compile's LayerNorm forwards took 0.877
# (bfloat16) and 0.899 (float16) of ours in call CB's tables, and RMSNorm's bfloat16 there (0.957)
# for contrast: launch configuration, duration, DRAM throughput, occupancy, warp stalls, instructions.
# ncu profiles every kernel of one call, the 31st of 40 (ncu_forward.py's NVTX range); torch.compile's
# generated source is kept (TORCHINDUCTOR_CACHE_DIR). Results in $OUT/res_cd.tgz: `mkdir -p cd/cd &&
# tar xzf res_cd.tgz -C cd/cd --strip-components=1` in runs/.
. "$(dirname "$0")/../call_lib.sh" cd
(build layer_norm) & (build rmsnorm) &
wait
ncu --version > "$R/ncu_version.txt" 2>&1
case_() {  # case_ PROJECT OP DTYPE ROWS COLS IMPL
  local name="$2_$3_$4x$5_$6"
  mkdir -p "$R/inductor_$name"
  (cd "$X/$1" && TORCHINDUCTOR_CACHE_DIR="$R/inductor_$name" PYTHONPATH=src timeout 150 \
     ncu --clock-control none --nvtx --nvtx-include "profiled/" --set full \
     --csv --page details python3 "$G/ncu_forward.py" "$2" "$3" "$4" "$5" "$6" > "$R/$name.csv" 2> "$R/$name.err")
  echo "case $name exit $? at $(elapsed) s"; pack
}
for dtype in bfloat16 float16; do
  for impl in ours compile; do case_ layer_norm layer_norm $dtype 4096 1024 $impl; done
done
for impl in ours compile; do case_ rmsnorm rms_norm bfloat16 4096 1024 $impl; done
echo "done at $(elapsed) s"; pack
