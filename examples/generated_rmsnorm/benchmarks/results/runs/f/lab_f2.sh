#!/usr/bin/env bash
# Lab F2 (issue 11): on the candidate after lab F (the residual add's rows of 1025 to 2048 vectors on 4
# vectors a thread; no add of a zero weight offset), LAB_FWD8=1: the forward on 8 vectors a thread for
# rows of 257 to 1024 vectors (LayerNorm's bfloat16 forward at 32768 x 4096 ran at 90.5% of the copy
# rate in X28, on 4 vectors a thread), against 4 (LAB_FWD8=0). Device time (e_time.py), the four
# operators rendered from the working tree (74dab05 + the candidate), patched by variant_f2.py.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/resf2; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/lab_f2.sh" "$T/variant_f2.py" "$T/e_time.py" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
P="rms layer_norm fused_add_rms_norm fused_add_layer_norm"
for p in $P; do
  (cd "$T/$p" && MAX_JOBS=4 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s"; tail -n 2 "$R/build_$p.log" > "$R/build_${p}_tail.log"; rm "$R/build_$p.log") &
done
wait
pack() { tar czf "$OUT/f2.tgz" -C "$T" resf2; }
run() {  # run DIR OP LABEL SHAPES DTYPES [VAR=VALUE...]
  local d=$1 op=$2 label=$3 s=$4 dt=$5; shift 5
  (cd "$T/$d" && env B_SHAPES=$s B_DTYPES=$dt "$@" timeout 100 python3 "$T/e_time.py" "$op" "$label" "$R/time_$label.json" > "$R/time_$label.log" 2>&1
   echo "time $label exit $? at $(el) s"; grep -v "^warning\|UserWarning\|return Variable" "$R/time_$label.log" | tail -n 10)
}
S="32768x4096,8192x8192,16384x6144,65536x2048,4096x16384"; D="bfloat16,float32"
for p in layer_norm rms fused_add_layer_norm fused_add_rms_norm; do
  op=$p; [ $p = rms ] && op=rms_norm
  run $p $op ${p}_i4 $S $D LAB_FWD8=0
  run $p $op ${p}_i8 $S $D LAB_FWD8=1
  pack
done
run layer_norm layer_norm layer_norm_i4_again "32768x4096,8192x8192" "bfloat16,float16" LAB_FWD8=0
run layer_norm layer_norm layer_norm_i8_again "32768x4096,8192x8192" "bfloat16,float16" LAB_FWD8=1
pack
echo "done at $(el) s"
