#!/usr/bin/env bash
# Lab D1 (issue 11): LayerNorm's staged forward (rows split over a cluster, 1024 x 65536), whose stalls
# wait on the weight and bias loads from L2 in the output pass (lab C1's Nsight Compute): the parameters
# of a thread's first 4 or 8 vectors loaded into registers before the reductions (pf4, pf8), or the
# output pass unrolled 8 deep (u8), against the branch's template (base, ef2af56). variant.py writes
# the variants. Builds the four, runs base's new cluster-placement tests, then times all four
# (runs/b/b_time.py: each case checked against float64 first).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res1; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
TIME=$(cd "$T/../.." && pwd)/examples/generated_rmsnorm/benchmarks/results/runs/b/b_time.py
el() { echo $(( $(date +%s) - start )); }
cp "$T/lab_d1.sh" "$T/variant.py" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
for p in ln_base ln_pf4 ln_pf8 ln_u8; do
  (cd "$T/$p" && MAX_JOBS=4 FORCE_CUDA=1 timeout 240 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s") &
done
wait
pack() { tar czf "$OUT/d1.tgz" -C "$T" res1; }
(cd "$T/ln_base" && timeout 90 python3 -m pytest -q -p no:cacheprovider tests -k "cannot_place or malformed or staged" > "$R/tests_ln_base.log" 2>&1; echo "tests ln_base exit $? at $(el) s"; tail -n 1 "$R/tests_ln_base.log")
pack
run() {  # run DIR
  (cd "$T/$1" && B_SHAPES=$S timeout 80 python3 "$TIME" layer_norm "$1" "$R/time_$1.json" > "$R/time_$1.log" 2>&1
   echo "time $1 exit $? at $(el) s")
}
S="1024x65536,2048x40960,512x131072"
run ln_base; run ln_pf4; run ln_pf8; run ln_u8; pack
run ln_base; pack
echo "done at $(el) s"
