#!/usr/bin/env bash
# Lab AJ (issue 11), prepared in session 39 (2026-11-29) without a GPU, for a later session: one call,
# on one H200 or two (nvidia-h200 or nvidia-h200-x2), carrying .gpu (`scaffold gpu-bundle .gpu` of
# main; .gpu/commit.txt says which):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/aj/lab_aj.sh
# The residual-add norms' CUDA backward reads grad_residual_out in its output pass from global
# memory (see variant_aj.py). Builds the residual-add RMSNorm as rendered (base) and as variants pf
# and st, and the residual-add LayerNorm as base and st (pf spills there: ptxas/); runs the variants'
# CUDA tests of the backward (`not cpu`: the CUDA-only tests carry no device id; the staging tests
# assert the base's shared memory, so they are left out); then the device time of forward and forward+backward (../e/e_time.py: CUDA graphs, each case
# checked against float64 first) of base, st, pf, base again, at 1024 x 65536, 4096 x 16384 and
# 32768 x 4096 in bfloat16 and float32; with two GPUs the two operators at once, one on each.
# Results in $OUT/res_aj.tgz (unpack into runs/aj/aj/ with console.txt). About 450 s on two GPUs by
# calls AB's and AI's build times and lab E2's timings; the limit is 580 s.
. "$(dirname "$0")/../call_lib.sh" aj
limit=580
[ -f "$X/commit.txt" ] || { echo "no .gpu/ here: carry .gpu"; exit 3; }
gpus=$(python3 -c 'import torch; print(torch.cuda.device_count())')
echo "GPUs: $gpus"
L=/tmp/aj_lab; rm -rf "$L"; mkdir -p "$L"
builds="fused_add_rms_norm:base fused_add_rms_norm:pf fused_add_rms_norm:st fused_add_layer_norm:base fused_add_layer_norm:st"
for b in $builds; do
  p=${b%%:*} v=${b##*:}
  cp -r "$X/$p" "$L/${p}_$v"
  [ "$v" = base ] || python3 "$G/variant_aj.py" "$L/${p}_$v" "$v" >> "$R/patch.log" 2>&1 || { echo "patch $b failed"; exit 1; }
done
jobs=$(( $(nproc) / 5 )); [ "$jobs" -lt 2 ] && jobs=2
for b in $builds; do
  d=${b%%:*}_${b##*:}
  (cd "$L/$d" && MAX_JOBS=$jobs FORCE_CUDA=1 timeout 360 python3 setup.py build_ext --inplace > "$R/build_$d.log" 2>&1
   echo "build $d exit $? at $(elapsed) s") &
done
wait; pack
K="not cpu and (forward_and_backward_match_reference or cuda_shapes or large_shapes or cluster_blocks or backward_with_few_row_groups or gradients_through_one_output or backward_without_grad_residual_out or misaligned_residual or backward_is_deterministic or cuda_graph)"
check() {  # check DIR GPU
  (cd "$L/$1" && CUDA_VISIBLE_DEVICES=$2 timeout 150 python3 -m pytest tests -q -p no:cacheprovider -k "$K" > "$R/tests_$1.log" 2>&1
   echo "tests $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_$1.log")")
}
second=$(( gpus > 1 ? 1 : 0 ))
check fused_add_rms_norm_st 0 & check fused_add_layer_norm_st $second & wait
check fused_add_rms_norm_pf 0; pack
time_op() {  # time_op OP GPU VARIANT...: each variant's device times, one after another, packed after each
  local op=$1 gpu=$2; shift 2
  for v in "$@"; do
    [ $(( limit - $(elapsed) )) -gt 60 ] || { echo "time $op $v not run: $(elapsed) s"; continue; }
    label=$v; [ -f "$R/time_${op}_$v.log" ] && label=${v}_again
    (cd "$L/${op}_$v" && CUDA_VISIBLE_DEVICES=$gpu B_SHAPES=1024x65536,4096x16384,32768x4096 B_DTYPES=bfloat16,float32 \
       timeout 120 python3 "$G/../e/e_time.py" "$op" "$label" "$R/time_${op}_$label.json" > "$R/time_${op}_$label.log" 2>&1
     echo "time $op $label exit $? at $(elapsed) s")
    pack
  done
}
if [ "$gpus" -gt 1 ]; then
  time_op fused_add_rms_norm 0 base st pf base & time_op fused_add_layer_norm 1 base st base & wait
else
  time_op fused_add_rms_norm 0 base st pf base; pack
  time_op fused_add_layer_norm 0 base st base
fi
echo "done at $(elapsed) s"; pack
