#!/usr/bin/env bash
# Lab E2 (issue 11): the backward's clusters of 256-thread blocks (LAB_BWD_THREADS=256, variant_e2.py:
# pick_cluster tries 256 threads a block first, so two blocks of a row's cluster fit a multiprocessor)
# against 512 (the records' kernels), at the shapes whose backward rows take a cluster, for the four
# operators rendered at 67c8a71. Lab E1 found LayerNorm's 16-bit backward at 1024 x 65536 4 to 6%
# faster so. Tests with 256 first (the geometry tests assert 512's clusters), then device times.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res2; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/lab_e2.sh" "$T/variant_e2.py" "$T/e_time.py" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
P="rms layer_norm fused_add_rms_norm fused_add_layer_norm"
for p in $P; do
  (cd "$T/$p" && MAX_JOBS=4 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s"; tail -n 2 "$R/build_$p.log" > "$R/build_${p}_tail.log"; rm "$R/build_$p.log") &
done
wait
pack() { tar czf "$OUT/e2.tgz" -C "$T" res2; }
for p in rms layer_norm; do
  (cd "$T/$p" && LAB_BWD_THREADS=256 timeout 100 python3 -m pytest -q -p no:cacheprovider tests > "$R/tests_${p}_b256.log" 2>&1; echo "tests $p b256 exit $? at $(el) s"; tail -n 1 "$R/tests_${p}_b256.log")
done
pack
run() {  # run DIR OP LABEL [VAR=VALUE...]
  local d=$1 op=$2 label=$3; shift 3
  (cd "$T/$d" && env B_SHAPES=$S B_DTYPES=$D "$@" timeout 90 python3 "$T/e_time.py" "$op" "$label" "$R/time_$label.json" > "$R/time_$label.log" 2>&1
   echo "time $label exit $? at $(el) s")
}
S="4096x16384,2048x32768,1024x65536,512x131072"; D="bfloat16,float16,float32"
for p in rms layer_norm fused_add_rms_norm fused_add_layer_norm; do
  op=$p; [ $p = rms ] && op=rms_norm
  run $p $op ${p}_b512 LAB_BWD_THREADS=512
  run $p $op ${p}_b256 LAB_BWD_THREADS=256
  pack
done
run layer_norm layer_norm layer_norm_b512_again LAB_BWD_THREADS=512
run layer_norm layer_norm layer_norm_b256_again LAB_BWD_THREADS=256
pack
echo "done at $(el) s"
