#!/usr/bin/env bash
# Lab AU1 (issue 11), prepared in session 44 (2026-11-30) for a later session: one call on two H200s of
# one host (nvidia-h200-x2; about 300 s by lab AT7's build and timing times), carrying .gpu
# (`scaffold gpu-bundle .gpu` of main):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/au/lab_au1.sh
# Why half the backward's blocks a multiprocessor (lab AT7's `halve`) made the uncentered norms'
# 16-bit backward 0.90 to 0.97 of main's at seven shapes but 1.17 to 1.32 at 16384 x 6144, before a
# rule lands. Builds of RMSNorm and the residual-add RMSNorm (main's kernels); their bfloat16 device
# time (../e/e_time.py, B_PEAK=1: the bytes requested at the peak give the workspace, so the row
# groups; summary_au.py) uncapped and
# under ROW_NORM_BACKWARD_GROUPS of 396, 264 and 132 (three, two and one a multiprocessor of the
# H200's 132), and uncapped again, at 16384 x 6144, 8192 x 6144, 32768 x 6144, 16384 x 5120,
# 8192 x 5120, 16384 x 7168, 8192 x 12288, 16384 x 2560 and 32768 x 3072 (where the GPU holds no more
# groups than a cap, that run repeats base: likely 396 at 6144 and 5120 columns, 264 at 7168, 132 at
# 12288, a control; the summary marks them): RMSNorm on one GPU; on the
# other first Nsight Compute (--clock-control none; launch statistics, occupancy, speed of light,
# memory workload, warp states) of RMSNorm's backward kernel at bfloat16 16384 x 6144 and 8192 x 5120,
# uncapped and under 264, then the residual-add RMSNorm's timings. Results in $OUT/res_au1.tgz: unpack
# with `mkdir -p au1 && tar xzf res_au1.tgz -C au1 --strip-components=1` in runs/au/, add
# console.txt, then `python3 summary_au.py au1 > summary_au1.txt`.
. "$(dirname "$0")/../call_lib.sh" au1
lab_start  # limit, gpus, L (call_lib.sh)
limit=400
# (ncu and the residual-add RMSNorm's timings beside RMSNorm's on one GPU would disturb them)
[ "$gpus" -gt 1 ] || { echo "lab AU1 needs two GPUs"; exit 3; }
declare -A LAB_EDITS=([base]="")
lab_builds "rmsnorm fused_add_rms_norm" "base"
for c in 396 264 132; do LAB_BUILD[c$c]=base; LAB_ENV[c$c]="ROW_NORM_BACKWARD_GROUPS=$c B_PEAK=1"; done
LAB_ENV[base]="B_PEAK=1"
SHAPES=16384x6144,8192x6144,32768x6144,16384x5120,8192x5120,16384x7168,8192x12288,16384x2560,32768x3072
RUNS="base c396 c264 c132 base"
g1=1
profile() {  # SHAPE CAP (empty: uncapped); none started with under 150 s of the limit left
  local tag=${2:-none} l=$(( $(lab_left) - 120 ))
  [ "$l" -gt 30 ] || { echo "ncu rmsnorm $1 cap $tag not run: $(elapsed) s"; return; }
  [ "$l" -gt 90 ] && l=90
  (cd "$L/rmsnorm_base" && CUDA_VISIBLE_DEVICES=$g1 env ${2:+ROW_NORM_BACKWARD_GROUPS=$2} timeout "$l" \
     ncu --clock-control none -k regex:backward_kernel -s 1 -c 1 --section LaunchStats --section Occupancy \
     --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
     python3 "$G/au_ncu.py" rms_norm bfloat16 "$1" > "$R/ncu_rmsnorm_bfloat16_$1_cap_$tag.txt" 2>&1
   echo "ncu rmsnorm $1 cap $tag exit $? at $(elapsed) s")
}
lab_time_runs 0 bfloat16 bfloat16 "$SHAPES" rmsnorm "$RUNS" &
(profile 16384x6144; profile 16384x6144 264; profile 8192x5120; profile 8192x5120 264; pack
 lab_time_runs "$g1" bfloat16 bfloat16 "$SHAPES" fused_add_rms_norm "$RUNS") & wait
echo "done at $(elapsed) s"; pack
