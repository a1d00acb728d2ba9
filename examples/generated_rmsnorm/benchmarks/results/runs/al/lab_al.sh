#!/usr/bin/env bash
# Lab AL (issue 11), prepared in session 40 (2026-11-29) without a GPU, for a later session: one call,
# on one H200 or two (nvidia-h200 or nvidia-h200-x2), carrying .gpu (`scaffold gpu-bundle .gpu` of
# main; .gpu/commit.txt says which):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/al/lab_al.sh
# LayerNorm's CUDA backward in three stages where RMSNorm's takes them (variant_al.py `three`), and on
# 256-thread blocks in its clusters (`knob`, LAB_AL_BWD_THREADS=256), against main's two stages on
# 512-thread blocks: builds LayerNorm's project with the knob (base: unset, the kernels and choices of
# main) and with the knob and `three`; runs `three`'s CUDA tests of the backward (`not cpu`: the
# CUDA-only tests carry no device id; the staging tests assert main's stage counts, so they are left
# out); then the device time of forward and forward+backward (../e/e_time.py: CUDA graphs, each case
# checked against float64 first) of base, base at 256, three, three at 256 and base again, at
# 1024 x 65536, 2048 x 32768, 4096 x 16384, 8192 x 8192 and 32768 x 4096: with two GPUs the 16-bit
# dtypes on one and float32 on the other, with one all three in turn. Results in $OUT/res_al.tgz
# (unpack into runs/al/al/ with console.txt); summary_al.py then prints the ratios. Then, on the
# float32 GPU once its timings are done (with one GPU, where time is left), the residual-add
# LayerNorm's forward with LAB_AL_FWD_ITEMS 4, 8 and 4 again (`fwdknob`, built beside the others) at
# 8192 x 8192, 16384 x 6144, 4096 x 16384 and 8192 x 12288, float32 and bfloat16. About 400 s on two
# GPUs, by call AK's build times and lab AJ's timings; the limit is 580 s, and no timing starts with
# under 60 s left.
. "$(dirname "$0")/../call_lib.sh" al
limit=580
[ -f "$X/commit.txt" ] || { echo "no .gpu/ here: carry .gpu"; exit 3; }
gpus=$(python3 -c 'import torch; print(torch.cuda.device_count())')
echo "GPUs: $gpus"
L=/tmp/al_lab; rm -rf "$L"; mkdir -p "$L"
for v in base three; do
  cp -r "$X/layer_norm" "$L/layer_norm_$v"
  python3 "$G/variant_al.py" "$L/layer_norm_$v" knob >> "$R/patch.log" 2>&1 || { echo "patch $v failed"; exit 1; }
done
python3 "$G/variant_al.py" "$L/layer_norm_three" three >> "$R/patch.log" 2>&1 || { echo "patch three failed"; exit 1; }
cp -r "$X/fused_add_layer_norm" "$L/fused_add_layer_norm_fwdknob"
python3 "$G/variant_al.py" "$L/fused_add_layer_norm_fwdknob" fwdknob >> "$R/patch.log" 2>&1 || { echo "patch fwdknob failed"; exit 1; }
jobs=$(( $(nproc) / 3 )); [ "$jobs" -lt 2 ] && jobs=2
for d in layer_norm_base layer_norm_three fused_add_layer_norm_fwdknob; do
  (cd "$L/$d" && MAX_JOBS=$jobs FORCE_CUDA=1 timeout 360 python3 setup.py build_ext --inplace > "$R/build_$d.log" 2>&1
   echo "build $d exit $? at $(elapsed) s") &
done
wait; pack
K="not cpu and (forward_and_backward_match_reference or cuda_shapes or large_shapes or cluster_blocks or backward_with_few_row_groups or backward_is_deterministic or cuda_graph or far)"
check() {  # check THREADS: three's tests with the knob at THREADS
  (cd "$L/layer_norm_three" && LAB_AL_BWD_THREADS=$1 timeout 150 python3 -m pytest tests -q -p no:cacheprovider -k "$K" \
     > "$R/tests_three_t$1.log" 2>&1
   echo "tests three at $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_three_t$1.log")")
}
if [ "$gpus" -gt 1 ]; then
  CUDA_VISIBLE_DEVICES=0 check 512 & CUDA_VISIBLE_DEVICES=1 check 256 & wait
else
  check 512; check 256
fi
pack
time_runs() {  # time_runs GPU TAG DTYPES: each BUILD:THREADS in turn, packed when done
  local gpu=$1 tag=$2 dtypes=$3 run v threads label
  for run in base:512 base:256 three:512 three:256 base:512; do
    v=${run%%:*} threads=${run##*:}
    label=$v; [ "$threads" = 256 ] && label=${v}_t256
    [ -f "$R/time_${label}_$tag.log" ] && label=${label}_again
    [ $(( limit - $(elapsed) )) -gt 60 ] || { echo "time $label ($dtypes) not run: $(elapsed) s"; continue; }
    (cd "$L/layer_norm_$v" && CUDA_VISIBLE_DEVICES=$gpu LAB_AL_BWD_THREADS=$threads \
       B_SHAPES=1024x65536,2048x32768,4096x16384,8192x8192,32768x4096 B_DTYPES=$dtypes \
       timeout 150 python3 "$G/../e/e_time.py" layer_norm "$label" "$R/time_${label}_$tag.json" > "$R/time_${label}_$tag.log" 2>&1
     echo "time $label ($dtypes) exit $? at $(elapsed) s")
    pack
  done
}
time_forward() {  # time_forward GPU: the residual-add LayerNorm's forward at 4, 8 and 4 vectors a thread
  local gpu=$1 items label
  for items in 4 8 4; do
    label=fwd_items$items; [ -f "$R/time_$label.log" ] && label=${label}_again
    [ $(( limit - $(elapsed) )) -gt 60 ] || { echo "time $label not run: $(elapsed) s"; continue; }
    (cd "$L/fused_add_layer_norm_fwdknob" && CUDA_VISIBLE_DEVICES=$gpu LAB_AL_FWD_ITEMS=$items \
       B_SHAPES=8192x8192,16384x6144,4096x16384,8192x12288 B_DTYPES=float32,bfloat16 \
       timeout 150 python3 "$G/../e/e_time.py" fused_add_layer_norm "$label" "$R/time_$label.json" > "$R/time_$label.log" 2>&1
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
