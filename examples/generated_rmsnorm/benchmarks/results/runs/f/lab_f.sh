#!/usr/bin/env bash
# Lab F (issue 11): (1) LAB_FWD4=1, the forward on 4 vectors a thread and up to 512 threads for rows of
# 1025 to 2048 vectors, against 8 vectors on up to 256 (the residual-add RMSNorm's 16-bit forward at
# 4096x16384 ran at 77% of the copy rate in X28, against 96% without the add); (2) --a0 builds: the
# weight's offset added only where it is not 0; (3) --vec build: the float32 residual add read in whole
# vectors. Projects rendered from main at 74dab05, patched by variant_f.py. Device time (e_time.py).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/resf; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/lab_f.sh" "$T/variant_f.py" "$T/e_time.py" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
P="rms layer_norm fused_add_rms_norm fused_add_layer_norm rms_a0 layer_norm_a0 fused_add_rms_norm_vec"
for p in $P; do
  (cd "$T/$p" && MAX_JOBS=2 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s"; tail -n 2 "$R/build_$p.log" > "$R/build_${p}_tail.log"; rm "$R/build_$p.log") &
done
wait
pack() { tar czf "$OUT/f.tgz" -C "$T" resf; }
run() {  # run DIR OP LABEL SHAPES DTYPES [VAR=VALUE...]
  local d=$1 op=$2 label=$3 s=$4 dt=$5; shift 5
  (cd "$T/$d" && env B_SHAPES=$s B_DTYPES=$dt "$@" timeout 100 python3 "$T/e_time.py" "$op" "$label" "$R/time_$label.json" > "$R/time_$label.log" 2>&1
   echo "time $label exit $? at $(el) s"; grep -v "^warning" "$R/time_$label.log" | tail -n 8)
}
S1="4096x16384,8192x8192,6144x12288,16384x6144"; D1="bfloat16,float32"
for p in fused_add_rms_norm rms layer_norm fused_add_layer_norm; do
  op=$p; [ $p = rms ] && op=rms_norm
  run $p $op ${p}_w8 $S1 $D1 LAB_FWD4=0
  run $p $op ${p}_w4 $S1 $D1 LAB_FWD4=1
  pack
done
S2="32768x4096,8192x8192,4096x16384,1024x65536"; D2="bfloat16,float32"
run layer_norm layer_norm ln_base $S2 $D2
run layer_norm_a0 layer_norm ln_a0 $S2 $D2
run rms rms_norm rms_base $S2 $D2
run rms_a0 rms_norm rms_a0 $S2 $D2
pack
run fused_add_rms_norm fused_add_rms_norm far_base $S2 float32
run fused_add_rms_norm_vec fused_add_rms_norm far_vec $S2 float32
pack
(cd "$T/fused_add_rms_norm" && LAB_FWD4=1 timeout 90 python3 -m pytest -q -p no:cacheprovider -x tests > "$R/tests_far_w4.log" 2>&1; echo "tests far w4 exit $? at $(el) s"; tail -n 1 "$R/tests_far_w4.log")
pack
echo "done at $(el) s"
