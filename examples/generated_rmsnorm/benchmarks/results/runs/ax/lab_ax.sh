#!/usr/bin/env bash
# Lab AX (issue 11), prepared in session 45 (2026-11-30) for a later session: `keep5`, the backward
# without its float32 workspace as a kernel build of its own (kKeep; template_keep5.diff, which
# applies after ../av/template_noshift.diff), for every norm, before a landing. One call on two H200s
# of one host (nvidia-h200-x2; about 540 s by calls AV's and AW's and lab AX0's times; one GPU runs
# parts 1 and 3 in turn, longer, and not part 2), carrying .gpu rendered from a clone with the diffs applied, made from the
# repository's root:
#   rm -rf /tmp/axclone && git clone -q . /tmp/axclone && (cd /tmp/axclone && R=examples/generated_rmsnorm/benchmarks/results/runs &&
#     { git apply --check "$R/av/template_noshift.diff" 2>/dev/null && git apply "$R/av/template_noshift.diff"; true; } &&
#     git apply "$R/ax/template_keep5.diff" && python -m scaffold gpu-bundle .gpu) && rm -rf .gpu && cp -r /tmp/axclone/.gpu .gpu
#   bash examples/generated_rmsnorm/benchmarks/results/runs/ax/lab_ax.sh
# (.gpu/commit.txt then names main's commit, which the diffs were applied to: the lab refuses a bundle
# without keep5 and records the diffs' SHA-256.) Once built (all four at once), in three parts:
# 1. The CUDA tests of the backward (pytest -k $TESTS: test_backward_without_workspace_matches_the_
#    workspace, the backward's other cases, the CUDA graph with and without the workspace, streams,
#    the data-parallel and second-device cases; both GPUs visible; not the whole CUDA suite, for
#    time, which a landing runs): RMSNorm's then LayerNorm's from GPU 0, the residual-add RMSNorm's
#    then the residual-add LayerNorm's from GPU 1.
# 2. (session 46; with two GPUs, after part 1) ddp_ax.py: the training step's time under
#    DistributedDataParallel (NCCL all-reducing while the backward runs) with and without the
#    workspace, RMSNorm's and, where 230 s of the limit are left after it, the residual-add
#    RMSNorm's; each setting's gradients compared; the norm's backward kernels of a profiled step,
#    their NCCL overlap and their gaps (its docstring).
# 3. After part 2: on GPU 0, device time and peak memory (../e/e_time.py, B_PEAK=1) with the workspace
#    (ROW_NORM_WORKSPACE=1, `base`), without (`keep`), with again, at the issue's shapes: RMSNorm in
#    bfloat16 and float32, LayerNorm in float32 (its 16-bit rows keep the workspace); on GPU 1,
#    compute-sanitizer on the sanitizer workloads (their new cases: groups of 37 or 38 rows and of
#    exactly the kept rows, with and without the workspace): racecheck of LayerNorm (whose kept rows
#    fill every stage: two of two) and of the residual-add RMSNorm, memcheck of LayerNorm. Lab AX0
#    (lab_ax0.sh) ran RMSNorm's memcheck and racecheck on the same kernels (session 46 changed a test
#    since, not csrc).
# Nothing is started with too little of the limit left (call_lib.sh). Results in $OUT/res_ax.tgz:
# unpack with `mkdir -p ax && tar xzf res_ax.tgz -C ax --strip-components=1` in runs/ax/, add
# console.txt, then `python3 ../au/summary_au.py ../ax/ax keep > summary_ax.txt` (times over the two
# `base` runs' mean, the workspace's; its row-group reading assumes the workspace, so the `keep`
# runs' groups read as about 0: that is the workspace gone; each run's peak memory, ours and eager's,
# is in its time_*.json). With one GPU each of parts 1 and 3 runs its two halves one after the other.
. "$(dirname "$0")/../call_lib.sh" ax
lab_start  # limit, gpus, L (call_lib.sh)
limit=570
grep -q "kept_rows" "$X/rmsnorm/csrc/row_norm/cuda.cuh" || { echo "this .gpu has no keep5: see the steps above"; exit 3; }
sha256sum "$G/template_keep5.diff" "$G/../av/template_noshift.diff" > "$R/diffs.sha256"
declare -A LAB_EDITS=([keep]="")
lab_builds "rmsnorm fused_add_rms_norm layer_norm fused_add_layer_norm" "keep"
g1=1; [ "$gpus" -gt 1 ] || g1=0
cuda_tests() {  # PROJECT FIRST_GPU: the CUDA tests of L/PROJECT_keep, within the limit less 120 s
  local l=$(( $(lab_left) - 120 ))
  [ "$l" -gt 30 ] || { echo "tests $1 not run: $(elapsed) s"; return; }
  local order=0,1; [ "$2" = 1 ] && order=1,0
  [ "$gpus" -gt 1 ] || order=0
  (cd "$L/${1}_keep" && CUDA_VISIBLE_DEVICES=$order timeout "$l" python3 -m pytest tests -q -p no:cacheprovider \
     -k "$TESTS" > "$R/tests_$1.log" 2>&1)
  echo "tests $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_$1.log")"
  pack
}
TESTS="not cpu and (workspace or backward or cuda_graph or stream or second_device or distributed)"
LAB_BUILD[base]=keep; LAB_ENV[base]="ROW_NORM_WORKSPACE=1 B_PEAK=1"; LAB_ENV[keep]="B_PEAK=1"
SHAPES=32768x4096,8192x8192,4096x16384,1024x65536,4096x1024,8192x4095
tests0() { cuda_tests rmsnorm 0; cuda_tests layer_norm 0; }
tests1() { cuda_tests fused_add_rms_norm 1; cuda_tests fused_add_layer_norm 1; }
times0() {
  lab_time_runs 0 bf16_f32 bfloat16,float32 "$SHAPES" rmsnorm "base keep base"
  lab_time_runs 0 f32 float32 "$SHAPES" layer_norm "base keep base"
}
sanitize1() {
  lab_sanitize layer_norm_keep layer_norm racecheck "$g1"
  lab_sanitize fused_add_rms_norm_keep fused_add_rms_norm racecheck "$g1"
  lab_sanitize layer_norm_keep layer_norm memcheck "$g1"
}
ddp3() {  # call_lib.sh's ddp_time: RMSNorm, then the residual-add RMSNorm, never into part 3's 230 s
  ddp_time rmsnorm "$L/rmsnorm_keep" 230
  ddp_time fused_add_rms_norm "$L/fused_add_rms_norm_keep" 230
}
if [ "$gpus" -gt 1 ]; then
  tests0 & tests1 & wait
  ddp3
  times0 & sanitize1 & wait
else
  tests0; tests1; times0; sanitize1
fi
echo "done at $(elapsed) s"; pack
