#!/usr/bin/env bash
# Lab AX (issue 11), prepared in session 45 (2026-11-30) for a later session: `keep5`, the backward
# without its float32 workspace as a kernel build of its own (kKeep; template_keep5.diff, which
# applies after ../av/template_noshift.diff), for every norm, before a landing. One call on two H200s
# of one host (nvidia-h200-x2; about 450 s by call AV's build times and suite times; one GPU runs it
# all in turn, longer), carrying .gpu rendered from a clone with the diffs applied, made from the
# repository's root:
#   rm -rf /tmp/axclone && git clone -q . /tmp/axclone && (cd /tmp/axclone && R=examples/generated_rmsnorm/benchmarks/results/runs &&
#     { git apply --check "$R/av/template_noshift.diff" 2>/dev/null && git apply "$R/av/template_noshift.diff"; true; } &&
#     git apply "$R/ax/template_keep5.diff" && python -m scaffold gpu-bundle .gpu) && rm -rf .gpu && cp -r /tmp/axclone/.gpu .gpu
#   bash examples/generated_rmsnorm/benchmarks/results/runs/ax/lab_ax.sh
# (.gpu/commit.txt then names main's commit, which the diffs were applied to: the lab refuses a bundle
# without keep5 and records the diffs' SHA-256.) Once built (all four at once):
# - GPU 0: RMSNorm's CUDA tests (pytest -k "not cpu": the suite's CUDA cases, among them
#   test_backward_without_workspace_matches_the_workspace, the CUDA graph, streams, data-parallel and
#   second-device cases; both GPUs visible), then RMSNorm's device time (../e/e_time.py, B_PEAK=1)
#   with the workspace (ROW_NORM_WORKSPACE=1, `base`), without (`keep`), with again, at the issue's
#   shapes in bfloat16 and float32, then compute-sanitizer's memcheck and racecheck on RMSNorm's
#   workload (its new cases: groups of 37 or 38 rows and of exactly the kept rows, with and without the
#   workspace);
# - GPU 1: the residual-add RMSNorm's, LayerNorm's and the residual-add LayerNorm's CUDA tests, then
#   LayerNorm's memcheck (its float32 and float64 keep two rows, one for each parameter).
# Nothing is started with too little of the limit left (call_lib.sh). Results in $OUT/res_ax.tgz:
# unpack with `mkdir -p ax && tar xzf res_ax.tgz -C ax --strip-components=1` in runs/ax/, add
# console.txt, then `python3 ../au/summary_au.py ../ax/ax keep > summary_ax.txt` (times over the two
# `base` runs' mean, the workspace's; its row-group reading assumes the workspace, so the `keep`
# runs' groups read as about 0: that is the workspace gone; each run's peak memory, ours and eager's,
# is in its time_*.json). With one GPU the two halves below run one after the other.
. "$(dirname "$0")/../call_lib.sh" ax
lab_start  # limit, gpus, L (call_lib.sh)
limit=570
grep -q "kept_rows" "$X/rmsnorm/csrc/row_norm/cuda.cuh" || { echo "this .gpu has no keep5: see the steps above"; exit 3; }
sha256sum "$G/template_keep5.diff" "$G/../av/template_noshift.diff" > "$R/diffs.sha256"
declare -A LAB_EDITS=([keep]="")
lab_builds "rmsnorm fused_add_rms_norm layer_norm fused_add_layer_norm" "keep"
g1=1; [ "$gpus" -gt 1 ] || g1=0
visible=0; [ "$gpus" -gt 1 ] && visible=0,1
cuda_tests() {  # PROJECT FIRST_GPU: the CUDA tests of L/PROJECT_keep, within the limit less 40 s
  local l=$(( $(lab_left) - 40 ))
  [ "$l" -gt 30 ] || { echo "tests $1 not run: $(elapsed) s"; return; }
  local order=$visible; [ "$2" = 1 ] && order=1,0
  [ "$gpus" -gt 1 ] || order=0
  (cd "$L/${1}_keep" && CUDA_VISIBLE_DEVICES=$order timeout "$l" python3 -m pytest tests -q -p no:cacheprovider \
     -k "not cpu" > "$R/tests_$1.log" 2>&1)
  echo "tests $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_$1.log")"
  pack
}
LAB_BUILD[base]=keep; LAB_ENV[base]="ROW_NORM_WORKSPACE=1 B_PEAK=1"; LAB_ENV[keep]="B_PEAK=1"
SHAPES=32768x4096,8192x8192,4096x16384,1024x65536,4096x1024,8192x4095
first() {
  cuda_tests rmsnorm 0
  lab_time_runs 0 bf16_f32 bfloat16,float32 "$SHAPES" rmsnorm "base keep base"
  lab_sanitize rmsnorm_keep rms_norm memcheck 0
  lab_sanitize rmsnorm_keep rms_norm racecheck 0
}
second() {
  cuda_tests fused_add_rms_norm 1; cuda_tests layer_norm 1; cuda_tests fused_add_layer_norm 1
  lab_sanitize layer_norm_keep layer_norm memcheck "$g1"
}
if [ "$gpus" -gt 1 ]; then first & second & wait; else first; second; fi
echo "done at $(elapsed) s"; pack
