#!/usr/bin/env bash
# Lab AL (issue 11), prepared in session 40 (2026-11-29) without a GPU, for a later session: one call,
# on one H200 or two (nvidia-h200 or nvidia-h200-x2; two preferred), carrying .gpu (`scaffold
# gpu-bundle .gpu` of main; .gpu/commit.txt says which):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/al/lab_al.sh
# Part 1, LayerNorm's 16-bit forward+backward at 1024 x 65536 (variant_al.py): builds LayerNorm's
# project three ways, each with the knob (LAB_AL_BWD_THREADS: unset, main's 512 threads a block in
# the backward's clusters): base (main), three (three stages), shiftpf (the shift's elements loaded
# a row ahead); runs their CUDA tests of the backward (`not cpu`: the CUDA-only tests carry no device
# id; the staging tests assert main's stage counts and are not selected; at 256 threads the cluster
# test, which asserts main's clusters, is left out); then the device time of forward and
# forward+backward (../e/e_time.py: CUDA graphs, each case checked against float64 first) of base,
# base at 256, three, three at 256, shiftpf, shiftpf at 256 and base again, at 1024 x 65536,
# 2048 x 32768, 4096 x 16384, 8192 x 8192 and 32768 x 4096; with two GPUs the 16-bit dtypes on one
# and float32 on the other. Part 2, on the float32 GPU after its timings (one GPU: where time is
# left): the residual-add LayerNorm's forward with LAB_AL_FWD_ITEMS 4, 8 and 4 again (`fwdknob`) at
# 8192 x 8192, 16384 x 6144, 4096 x 16384 and 8192 x 12288 in float32 and bfloat16. Added in
# session 41: the residual-add RMSNorm's project is built too, and call AK's two new tests of the
# staged grad_residual_out run, on main's kernels, in it and in the fwdknob build (knob unset). Results in
# $OUT/res_al.tgz: unpack with `mkdir -p al && tar xzf res_al.tgz -C al --strip-components=1` in
# runs/al/, add console.txt, then `python3 summary_al.py > summary.txt`. About 350 s on two GPUs and
# 450 on one, by call AK's build times and lab AJ's timings; the limit is 580 s: no timing starts
# with under 60 s left, and none runs past the limit.
. "$(dirname "$0")/../call_lib.sh" al
lab_start  # limit, gpus, L (call_lib.sh)
apply_variants() {  # apply_variants DIR VARIANT...
  local d=$1 v; shift
  for v in "$@"; do python3 "$G/variant_al.py" "$L/$d" "$v" >> "$R/patch.log" 2>&1 || { echo "patch $d $v failed"; exit 1; }; done
}
for v in base three shiftpf; do cp -r "$X/layer_norm" "$L/layer_norm_$v"; done
cp -r "$X/fused_add_layer_norm" "$L/fused_add_layer_norm_fwdknob"
cp -r "$X/fused_add_rms_norm" "$L/fused_add_rms_norm"
apply_variants layer_norm_base knob; apply_variants layer_norm_three knob three; apply_variants layer_norm_shiftpf knob shiftpf
apply_variants fused_add_layer_norm_fwdknob fwdknob
jobs=$(( $(nproc) / 4 )); [ "$jobs" -lt 2 ] && jobs=2
for d in layer_norm_base layer_norm_three layer_norm_shiftpf fused_add_layer_norm_fwdknob fused_add_rms_norm; do
  (cd "$L/$d" && MAX_JOBS=$jobs FORCE_CUDA=1 timeout 360 python3 setup.py build_ext --inplace > "$R/build_$d.log" 2>&1
   echo "build $d exit $? at $(elapsed) s") &
done
wait; pack
K="not cpu and (forward_and_backward_match_reference or cuda_shapes or large_shapes or cluster_blocks or backward_with_few_row_groups or backward_is_deterministic or cuda_graph or far)"
check() {  # check VARIANT THREADS [EXTRA -k]: the variant's tests with the knob at THREADS
  local v=$1 threads=$2 k="$K${3:-}"
  (cd "$L/layer_norm_$v" && LAB_AL_BWD_THREADS=$threads timeout 150 python3 -m pytest tests -q -p no:cacheprovider -k "$k" \
     > "$R/tests_${v}_t$threads.log" 2>&1
   echo "tests $v at $threads exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_${v}_t$threads.log")")
}
staged() {  # staged PROJECT: call AK's two new tests of the staged grad_residual_out (main's kernels)
  (cd "$L/$1" && timeout 120 python3 -m pytest tests -q -p no:cacheprovider \
     -k "shared_memory_cap_between_calls or backward_stages_grad_residual_out" > "$R/tests_staged_$1.log" 2>&1
   echo "staged tests $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_staged_$1.log")")
}
if [ "$gpus" -gt 1 ]; then
  (CUDA_VISIBLE_DEVICES=0 check three 512; CUDA_VISIBLE_DEVICES=0 check shiftpf 512) &
  (CUDA_VISIBLE_DEVICES=1 check three 256 " and not cluster_blocks"
   CUDA_VISIBLE_DEVICES=1 staged fused_add_layer_norm_fwdknob; CUDA_VISIBLE_DEVICES=1 staged fused_add_rms_norm) & wait
else
  check three 512; check shiftpf 512; check three 256 " and not cluster_blocks"
  staged fused_add_layer_norm_fwdknob; staged fused_add_rms_norm
fi
pack
left() { echo $(( limit - $(elapsed) )); }
time_runs() {  # time_runs GPU TAG DTYPES: each BUILD:THREADS in turn, packed when done
  local gpu=$1 tag=$2 dtypes=$3 run v threads label
  for run in base:512 base:256 three:512 three:256 shiftpf:512 shiftpf:256 base:512; do
    v=${run%%:*} threads=${run##*:}
    label=$v; [ "$threads" = 256 ] && label=${v}_t256
    [ -f "$R/time_${label}_$tag.log" ] && label=${label}_again
    [ "$(left)" -gt 60 ] || { echo "time $label ($dtypes) not run: $(elapsed) s"; continue; }
    (cd "$L/layer_norm_$v" && CUDA_VISIBLE_DEVICES=$gpu LAB_AL_BWD_THREADS=$threads \
       B_SHAPES=1024x65536,2048x32768,4096x16384,8192x8192,32768x4096 B_DTYPES=$dtypes \
       timeout "$(left)" python3 "$G/../e/e_time.py" layer_norm "$label" "$R/time_${label}_$tag.json" \
       > "$R/time_${label}_$tag.log" 2>&1
     echo "time $label ($dtypes) exit $? at $(elapsed) s")
    pack
  done
}
time_forward() {  # time_forward GPU: the residual-add LayerNorm's forward at 4, 8 and 4 vectors a thread
  local gpu=$1 items label
  for items in 4 8 4; do
    label=fwd_items$items; [ -f "$R/time_$label.log" ] && label=${label}_again
    [ "$(left)" -gt 60 ] || { echo "time $label not run: $(elapsed) s"; continue; }
    (cd "$L/fused_add_layer_norm_fwdknob" && CUDA_VISIBLE_DEVICES=$gpu LAB_AL_FWD_ITEMS=$items \
       B_SHAPES=8192x8192,16384x6144,4096x16384,8192x12288 B_DTYPES=float32,bfloat16 \
       timeout "$(left)" python3 "$G/../e/e_time.py" fused_add_layer_norm "$label" "$R/time_$label.json" \
       > "$R/time_$label.log" 2>&1
     echo "time $label exit $? at $(elapsed) s")
    pack
  done
}
if [ "$gpus" -gt 1 ]; then
  time_runs 0 16bit bfloat16,float16 & (time_runs 1 float32 float32; time_forward 1) & wait
else
  time_runs 0 all bfloat16,float16,float32
  time_forward 0
fi
echo "done at $(elapsed) s"; pack
