#!/usr/bin/env bash
# Lab E1 (issue 11): the staged forward (rows split over a cluster, slices in shared memory) normalizing
# kRows rows a cluster, which reads each parameter vector from L2 once for them (LAB_ROWS: 1, the
# records' kernel, 2 or 4), and the backward's clusters of 256-thread blocks (LAB_BWD_THREADS=256: two
# blocks a multiprocessor) against 512 (one). Builds: ln and rms, the template at the lab's commit with
# variant_e1.py's run-time choice; ln_b: the output pass unrolled kUnroll / kRows deep; ln_c: the kernel
# bounded to three blocks of 512 threads (40 registers) in float and bfloat16/float16. Tests first, the
# staged kernels of 2 and 4 rows, then device times (e_time.py, each case checked against float64).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res1; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/lab_e1.sh" "$T/variant_e1.py" "$T/e_time.py" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
for p in ln rms ln_b ln_c; do
  (cd "$T/$p" && MAX_JOBS=4 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s"; tail -n 2 "$R/build_$p.log" > "$R/build_${p}_tail.log"; rm "$R/build_$p.log") &
done
wait
pack() { tar czf "$OUT/e1.tgz" -C "$T" res1; }
(cd "$T/ln" && LAB_ROWS=2 LAB_BWD_THREADS=256 timeout 100 python3 -m pytest -q -p no:cacheprovider tests -k cuda > "$R/tests_ln_r2_b256.log" 2>&1; echo "tests ln r2 b256 exit $? at $(el) s"; tail -n 1 "$R/tests_ln_r2_b256.log")
(cd "$T/rms" && LAB_ROWS=4 timeout 100 python3 -m pytest -q -p no:cacheprovider tests -k cuda > "$R/tests_rms_r4.log" 2>&1; echo "tests rms r4 exit $? at $(el) s"; tail -n 1 "$R/tests_rms_r4.log")
pack
run() {  # run DIR OP LABEL [VAR=VALUE...]
  local d=$1 op=$2 label=$3; shift 3
  (cd "$T/$d" && env B_SHAPES=$S B_DTYPES=$D "$@" timeout 90 python3 "$T/e_time.py" "$op" "$label" "$R/time_$label.json" > "$R/time_$label.log" 2>&1
   echo "time $label exit $? at $(el) s")
}
S="1024x65536,512x131072,256x65536"; D="bfloat16,float32"
run ln layer_norm ln_r1 LAB_ROWS=1
run ln layer_norm ln_r2 LAB_ROWS=2
run ln layer_norm ln_r4 LAB_ROWS=4
run ln_b layer_norm lnb_r2 LAB_ROWS=2
run ln_c layer_norm lnc_r2 LAB_ROWS=2
run ln layer_norm ln_r2_b256 LAB_ROWS=2 LAB_BWD_THREADS=256
pack
run rms rms_norm rms_r1 LAB_ROWS=1
run rms rms_norm rms_r2 LAB_ROWS=2
run rms rms_norm rms_r4 LAB_ROWS=4
run rms rms_norm rms_r2_b256 LAB_ROWS=2 LAB_BWD_THREADS=256
pack
D="float16"
run ln layer_norm ln16_r1 LAB_ROWS=1
run ln layer_norm ln16_r2 LAB_ROWS=2
run ln layer_norm ln16_r2_b256 LAB_ROWS=2 LAB_BWD_THREADS=256
run ln layer_norm ln_r1_again LAB_ROWS=1 B_DTYPES=bfloat16
pack
echo "done at $(el) s"
