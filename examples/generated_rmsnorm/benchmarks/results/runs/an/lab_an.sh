#!/usr/bin/env bash
# Lab AN (issue 11), session 41 (2026-11-29), after lab AM: one call, on one H200 or two
# (nvidia-h200-x2 preferred), carrying .gpu (`scaffold gpu-bundle .gpu` of main):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/an/lab_an.sh
# Builds of each norm's project (variant_an.py, ../am/variant_am.py): base (main); am (lab AM's: words,
# invn, idx32; LayerNorm only); an (words, idx32, invnarg: 1 / N a kernel argument; LayerNorm and the
# residual-add LayerNorm); an2 (an and rs: the row sums by reduce-scatter; every norm). All at once;
# then the CUDA tests of the backward of each an2 build and of LayerNorm's an; then the device time of
# forward and forward+backward (../e/e_time.py: CUDA graphs, each case checked against float64 first)
# of base, the variants, base again, for each norm in turn, at 1024 x 65536, 4096 x 16384,
# 8192 x 8192, 32768 x 4096, 8192 x 4095 and 4096 x 1024; with two GPUs the 16-bit dtypes on one and
# float32 on the other. Last, where time is left, Nsight Compute's instructions and cycles of the
# bfloat16 LayerNorm backward at 1024 x 65536 of base, an and an2 (../l/ncu_case.py). Results in
# $OUT/res_an.tgz: unpack with `mkdir -p an && tar xzf res_an.tgz -C an --strip-components=1` in
# runs/an/, add console.txt, then `python3 summary_an.py > summary.txt`. The limit is 580 s: no timing
# starts with under 50 s left, and none runs past the limit.
. "$(dirname "$0")/../call_lib.sh" an
lab_start  # limit, gpus, L (call_lib.sh)
declare -A VARIANTS=([layer_norm]="am an an2" [rmsnorm]="an2" [fused_add_layer_norm]="an an2"
                     [fused_add_rms_norm]="an2")
declare -A EDITS=([am]="am:words am:invn am:idx32" [an]="am:words am:idx32 an:invnarg"
                  [an2]="am:words am:idx32 an:invnarg an:rs")
PROJECTS="layer_norm rmsnorm fused_add_layer_norm fused_add_rms_norm"
builds=""
for p in $PROJECTS; do
  cp -r "$X/$p" "$L/${p}_base"; builds="$builds ${p}_base"
  for v in ${VARIANTS[$p]}; do
    cp -r "$X/$p" "$L/${p}_$v"; builds="$builds ${p}_$v"
    for e in ${EDITS[$v]}; do
      python3 "$G/../${e%%:*}/variant_${e%%:*}.py" "$L/${p}_$v" "${e##*:}" >> "$R/patch.log" 2>&1 \
        || { echo "patch $p $v $e failed"; exit 1; }
    done
  done
done
jobs=$(( $(nproc) / 8 )); [ "$jobs" -lt 2 ] && jobs=2
for d in $builds; do
  (cd "$L/$d" && MAX_JOBS=$jobs FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$d.log" 2>&1
   echo "build $d exit $? at $(elapsed) s") &
done
wait; pack
K="not cpu and (forward_and_backward_match_reference or cuda_shapes or large_shapes or cluster_blocks or backward_with_few_row_groups or backward_is_deterministic or cuda_graph or far or staged or shared_memory)"
check() {  # check BUILD
  (cd "$L/$1" && timeout 120 python3 -m pytest tests -q -p no:cacheprovider -k "$K" > "$R/tests_$1.log" 2>&1
   echo "tests $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_$1.log")")
}
if [ "$gpus" -gt 1 ]; then
  (CUDA_VISIBLE_DEVICES=0 check layer_norm_an2; CUDA_VISIBLE_DEVICES=0 check rmsnorm_an2
   CUDA_VISIBLE_DEVICES=0 check layer_norm_an) &
  (CUDA_VISIBLE_DEVICES=1 check fused_add_layer_norm_an2; CUDA_VISIBLE_DEVICES=1 check fused_add_rms_norm_an2) & wait
else
  for d in layer_norm_an2 rmsnorm_an2 fused_add_layer_norm_an2 fused_add_rms_norm_an2 layer_norm_an; do check $d; done
fi
pack
declare -A OP=([layer_norm]=layer_norm [rmsnorm]=rms_norm [fused_add_layer_norm]=fused_add_layer_norm
               [fused_add_rms_norm]=fused_add_rms_norm)
left() { echo $(( limit - $(elapsed) )); }
time_runs() {  # time_runs GPU TAG DTYPES
  local gpu=$1 tag=$2 dtypes=$3 p run label
  for p in $PROJECTS; do
    for run in base ${VARIANTS[$p]} base; do
      label=$run; [ -f "$R/time_${p}_${label}_$tag.log" ] && label=${label}_again
      [ "$(left)" -gt 50 ] || { echo "time $p $label ($dtypes) not run: $(elapsed) s"; continue; }
      (cd "$L/${p}_$run" && CUDA_VISIBLE_DEVICES=$gpu \
         B_SHAPES=1024x65536,4096x16384,8192x8192,32768x4096,8192x4095,4096x1024 B_DTYPES=$dtypes \
         timeout "$(left)" python3 "$G/../e/e_time.py" "${OP[$p]}" "$label" "$R/time_${p}_${label}_$tag.json" \
         > "$R/time_${p}_${label}_$tag.log" 2>&1
       echo "time $p $label ($dtypes) exit $? at $(elapsed) s")
      pack
    done
  done
}
ncu_runs() {  # ncu_runs GPU: instructions and cycles of the bfloat16 LayerNorm backward at 1024 x 65536
  local gpu=$1 run
  for run in base an an2; do
    [ "$(left)" -gt 40 ] || { echo "ncu $run not run: $(elapsed) s"; continue; }
    (cd "$L/layer_norm_$run" && CUDA_VISIBLE_DEVICES=$gpu PYTHONPATH=src timeout 60 ncu --clock-control none \
       -k regex:backward_kernel --launch-skip 3 --launch-count 1 \
       --metrics smsp__inst_executed.sum,sm__cycles_active.avg --section SpeedOfLight --section WarpStateStats \
       --section SchedulerStats --csv --page details \
       python3 "$G/../l/ncu_case.py" example_layer_norm layer_norm bfloat16 1024 65536 > "$R/ncu_layer_norm_$run.txt" 2>&1
     echo "ncu $run exit $? at $(elapsed) s")
    pack
  done
}
if [ "$gpus" -gt 1 ]; then
  time_runs 0 16bit bfloat16,float16 & (time_runs 1 float32 float32; ncu_runs 1) & wait
else
  time_runs 0 all bfloat16,float16,float32
  ncu_runs 0
fi
echo "done at $(elapsed) s"; pack
