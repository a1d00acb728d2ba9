#!/usr/bin/env bash
# Lab AT3 (issue 11), prepared in session 43 (2026-11-30) for a later session: one call on two H200s
# of one host (nvidia-h200-x2; about 340 s by lab AT2's build and timing times), carrying .gpu
# (`scaffold gpu-bundle .gpu` of main):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/at/lab_at3.sh
# Where lab AT2's keep2 spends its time, and a forward with cache hints. Builds of RMSNorm's project,
# all at once: base (main); probe (variant_at.py: keep2 with ROW_NORM_AT_LEAVE_OUT); blocksum (a
# block's row groups' sums added in shared memory: its code runs only where a block holds several
# row groups, at 256 bfloat16 columns or fewer, none of the shapes timed here, where it is a control
# for the registers keep's code moves); cs (the rows and outputs read or written once marked as
# streamed: ld.global.cs, st.global.cs). The CUDA tests of probe, blocksum and cs (no step left out)
# on one GPU; on the other at_streams.py on probe (each call's outputs compared, CUDA events on both
# streams), then compute-sanitizer racecheck of blocksum's sanitizer workload (which reaches its
# shared-memory sum). Then the device time of forward and forward+backward (../e/e_time.py,
# B_PEAK=1) of base, probe, probe without the grid's sum (a1), also without the second barrier (a3),
# also without the kept rows' writes (a7), also without the first barrier (a15: B_NOCHECK=1 for a1
# to a15, whose results are wrong), blocksum, base and probe with at most 264 row groups (base_g,
# probe_g: ROW_NORM_BACKWARD_GROUPS) and 132 (base_h, probe_h), cs, and base again, bfloat16 on one
# GPU and float32 on the other, at 32768 x 4096, 8192 x 8192, 4096 x 16384 and 4096 x 1024. Results
# in $OUT/res_at3.tgz: unpack with `mkdir -p at3 && tar xzf res_at3.tgz -C at3
# --strip-components=1` in runs/at/, add console.txt, then `python3 summary_at.py at3
# probe,a1,a3,a7,a15,blocksum,base_g,probe_g,base_h,probe_h,cs > summary_at3.txt`.
. "$(dirname "$0")/../call_lib.sh" at3
lab_start  # limit, gpus, L (call_lib.sh)
limit=370
declare -A LAB_EDITS=([base]="" [probe]="at:probe" [blocksum]="at:blocksum" [cs]="at:cs")
lab_builds rmsnorm "base probe blocksum cs"
K="not cpu and (forward_and_backward_match_reference or cuda_shapes or large_shapes or backward_with_few_row_groups or backward_is_deterministic or cuda_graph or stages or shared_memory or misaligned or float32_parameters)"
g1=1; [ "$gpus" -gt 1 ] || g1=0
(lab_tests rmsnorm_probe 0 "$K" 120; lab_tests rmsnorm_blocksum 0 "$K" 120; lab_tests rmsnorm_cs 0 "$K" 120) &
((cd "$L/rmsnorm_probe" && CUDA_VISIBLE_DEVICES=$g1 timeout 90 python3 "$G/at_streams.py" rms_norm > "$R/streams_rmsnorm_probe.log" 2>&1
  echo "streams rmsnorm_probe exit $? at $(elapsed) s: $(tail -n 1 "$R/streams_rmsnorm_probe.log")")
 lab_sanitize rmsnorm_blocksum rms_norm racecheck $g1) & wait; pack
for a in 1 3 7 15; do LAB_BUILD[a$a]=probe; LAB_ENV[a$a]="ROW_NORM_AT_LEAVE_OUT=$a B_NOCHECK=1"; done
# base and probe with at most 264 row groups (_g; at 4096 x 1024 about 15.5 rows each, not 1056 of
# 3.9) and 132 (_h: one a multiprocessor), so that the epilogue's share (its sums, kept rows) shrinks
LAB_BUILD[base_g]=base; LAB_ENV[base_g]="ROW_NORM_BACKWARD_GROUPS=264"
LAB_BUILD[probe_g]=probe; LAB_ENV[probe_g]="ROW_NORM_BACKWARD_GROUPS=264"
LAB_BUILD[base_h]=base; LAB_ENV[base_h]="ROW_NORM_BACKWARD_GROUPS=132"
LAB_BUILD[probe_h]=probe; LAB_ENV[probe_h]="ROW_NORM_BACKWARD_GROUPS=132"
export B_PEAK=1
SHAPES=32768x4096,8192x8192,4096x16384,4096x1024
RUNS="base probe a1 a3 a7 a15 blocksum base_g probe_g base_h probe_h cs base"
if [ "$gpus" -gt 1 ]; then
  lab_time_runs 0 bfloat16 bfloat16 "$SHAPES" rmsnorm "$RUNS" &
  lab_time_runs 1 float32 float32 "$SHAPES" rmsnorm "$RUNS" & wait
else
  lab_time_runs 0 all bfloat16,float32 "$SHAPES" rmsnorm "$RUNS"
fi
echo "done at $(elapsed) s"; pack
