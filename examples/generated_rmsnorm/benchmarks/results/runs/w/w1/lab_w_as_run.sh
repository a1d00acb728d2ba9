#!/usr/bin/env bash
# Lab W (issue 11): LAB_WALK=1, the staged forward of rows split over a cluster (1024 x 65536 and
# such) walked by as many clusters as the device holds at once, each block holding its slice of the
# weight (and bias) in shared memory and `LAB_WALK_STAGES` rows staged ahead (LAB_WALK_CLUSTER forces
# the cluster), against forward_staged_kernel (one cluster a row, the parameters read from L2 in the
# output pass). Device time of the forward (w_time.py, each case checked against float64 first); the
# CUDA tests with LAB_WALK=1; the host's time a call at 16 x 4096 (host_prof.py).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/resw; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/lab_w.sh" "$T/w_time.py" "$T/host_prof.py" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
P="rms layer_norm fused_add_rms_norm"
for p in $P; do
  (cd "$T/$p" && MAX_JOBS=5 FORCE_CUDA=1 timeout 330 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s"; tail -n 2 "$R/build_$p.log" > "$R/build_${p}_tail.log"; rm "$R/build_$p.log") &
done
wait
pack() { tar czf "$OUT/w.tgz" -C "$T" resw; }
run() {  # run DIR OP LABEL SHAPES DTYPES [VAR=VALUE...]
  local d=$1 op=$2 label=$3 s=$4 dt=$5; shift 5
  (cd "$T/$d" && env B_FWD_ONLY=1 B_SHAPES=$s B_DTYPES=$dt "$@" timeout 100 python3 "$T/w_time.py" "$op" "$label" "$R/time_$label.json" > "$R/time_$label.log" 2>&1
   echo "time $label exit $? at $(el) s"; grep -v "^warning\|UserWarning\|return Variable" "$R/time_$label.log" | tail -n 8)
}
(cd "$T/layer_norm" && LAB_WALK=1 LAB_WALK_PRINT=1 timeout 200 python3 -m pytest tests -q -x -k "cuda and not wide_rows_staged" -p no:cacheprovider > "$R/tests_layer_norm_walk.log" 2>&1; echo "tests ln exit $? at $(el) s"; tail -n 3 "$R/tests_layer_norm_walk.log" | cut -c1-300)
(cd "$T/fused_add_rms_norm" && LAB_WALK=1 timeout 120 python3 -m pytest tests -q -x -k "cuda and (shapes or reference or float32_parameters or exchange or cannot_place)" -p no:cacheprovider > "$R/tests_fused_add_rms_norm_walk.log" 2>&1; echo "tests add-rms exit $? at $(el) s"; tail -n 3 "$R/tests_fused_add_rms_norm_walk.log" | cut -c1-300)
pack
S="1024x65536,2048x32768,512x131072"; D="bfloat16,float32"
for p in layer_norm rms; do
  op=$p; [ $p = rms ] && op=rms_norm
  run $p $op ${p}_base $S $D
  (cd "$T/$p" && LAB_WALK=1 LAB_WALK_PRINT=1 LAB_WALK_STAGES=2 B_FWD_ONLY=1 B_SHAPES=$S B_DTYPES=$D timeout 60 python3 "$T/w_time.py" $op probe /dev/null 2>&1 | grep "^walk" | sort -u > "$R/geometry_$p.txt")
  run $p $op ${p}_s2 $S $D LAB_WALK=1 LAB_WALK_STAGES=2
  run $p $op ${p}_s3 $S $D LAB_WALK=1 LAB_WALK_STAGES=3
  run $p $op ${p}_c8s3 $S $D LAB_WALK=1 LAB_WALK_STAGES=3 LAB_WALK_CLUSTER=8
  run $p $op ${p}_c8s4 $S $D LAB_WALK=1 LAB_WALK_STAGES=4 LAB_WALK_CLUSTER=8
  pack
done
run fused_add_rms_norm fused_add_rms_norm add_base "1024x65536" $D
run fused_add_rms_norm fused_add_rms_norm add_s2 "1024x65536" $D LAB_WALK=1 LAB_WALK_STAGES=2
run fused_add_rms_norm fused_add_rms_norm add_c8s3 "1024x65536" $D LAB_WALK=1 LAB_WALK_STAGES=3 LAB_WALK_CLUSTER=8
run layer_norm layer_norm layer_norm_base_again "1024x65536" "bfloat16,float16,float32"
pack
for p in layer_norm rms; do op=$p; [ $p = rms ] && op=rms_norm
  (cd "$T/$p" && timeout 60 python3 "$T/host_prof.py" $op > "$R/host_$p.log" 2>&1; echo "host $p exit $? at $(el) s"; grep "a call" "$R/host_$p.log")
done
pack
echo "done at $(el) s"
