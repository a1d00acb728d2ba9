#!/usr/bin/env bash
# Lab K (issue 11; its first run called it lab X): the staged forward (rows split over a cluster, 1024 x 65536 and such) with its
# cluster steps in three modes (LAB_FWD_MODE): 0, as on main: cluster_reduce (a cluster barrier, then
# each block reads its peers' slots) and a cluster barrier at the end, whose release waits for the
# block's stores of y; 1: cluster_reduce, the end's barrier split into an arrival after the reduction
# and a wait at the end; 2: ClusterExchange (each block stores its sums into its peers' shared
# memory, st.async, and waits on its own mbarrier), the end's barrier split, its arrival relaxed.
# Device time of the forward (w_time.py, each case checked against float64 first); the CUDA tests in
# mode 2. Second run (X2): mode 2 with 4-byte st.async where the sums are not 8-byte multiples (the
# first run's 8-byte stores into slots of 12 bytes were misaligned).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/resx2; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/lab_x.sh" "$T/w_time.py" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
P="rms layer_norm fused_add_rms_norm fused_add_layer_norm"
for p in $P; do
  (cd "$T/$p" && MAX_JOBS=4 FORCE_CUDA=1 timeout 330 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s"; tail -n 2 "$R/build_$p.log" > "$R/build_${p}_tail.log"; rm "$R/build_$p.log") &
done
wait
pack() { tar czf "$OUT/x2.tgz" -C "$T" resx2; }
run() {  # run DIR OP LABEL SHAPES DTYPES [VAR=VALUE...]
  local d=$1 op=$2 label=$3 s=$4 dt=$5; shift 5
  (cd "$T/$d" && env B_FWD_ONLY=1 B_SHAPES=$s B_DTYPES=$dt "$@" timeout 100 python3 "$T/w_time.py" "$op" "$label" "$R/time_$label.json" > "$R/time_$label.log" 2>&1
   echo "time $label exit $? at $(el) s"; grep -v "^warning\|UserWarning\|return Variable" "$R/time_$label.log" | tail -n 8)
}
for p in layer_norm fused_add_layer_norm; do
  (cd "$T/$p" && LAB_FWD_MODE=2 timeout 150 python3 -m pytest tests -q -x -k "cuda" -p no:cacheprovider > "$R/tests_${p}_mode2.log" 2>&1; echo "tests $p exit $? at $(el) s"; tail -n 1 "$R/tests_${p}_mode2.log" | cut -c1-300)
done
pack
S="1024x65536,512x131072"; D="bfloat16,float32"
for p in layer_norm rms fused_add_layer_norm fused_add_rms_norm; do
  op=$p; [ $p = rms ] && op=rms_norm
  for m in 0 1 2; do run $p $op ${p}_m${m} $S $D LAB_FWD_MODE=$m; done
  pack
done
for m in 2 1 0; do run layer_norm layer_norm layer_norm_m${m}_again "1024x65536" "bfloat16,float16" LAB_FWD_MODE=$m; done
pack
echo "done at $(el) s"
