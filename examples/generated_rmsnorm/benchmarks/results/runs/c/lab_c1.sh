#!/usr/bin/env bash
# Lab C1 (issue 11): three stages of staging in the backward for LayerNorm and the residual-add RMSNorm
# (kMostStages in csrc/row_norm/cuda.cuh: three wherever rows start on a vector boundary at four or more
# vectors a thread, "new") against main's two for them ("old", e674380, X26's template). Builds the four,
# runs the new builds' CUDA tests (but the stage test, which expects two) and racecheck on their
# workloads, then times all four (runs/b/b_time.py: each case checked against float64 first).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res1; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
TIME=$(cd "$T/../.." && pwd)/examples/generated_rmsnorm/benchmarks/results/runs/b/b_time.py
el() { echo $(( $(date +%s) - start )); }
cp "$T/lab_c1.sh" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
for p in ln_new addrms_new ln_old addrms_old; do
  (cd "$T/$p" && MAX_JOBS=4 FORCE_CUDA=1 timeout 280 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s") &
done
wait
pack() { tar czf "$OUT/c1.tgz" -C "$T" res1; }
for p in ln_new addrms_new; do
  (cd "$T/$p" && PYTHONPATH=src timeout 90 python3 -m pytest -q -p no:cacheprovider tests -k "cuda and not less_shared_memory" > "$R/tests_$p.log" 2>&1; echo "tests $p exit $? at $(el) s"; tail -n 1 "$R/tests_$p.log")
done
(cd "$T/ln_new" && PYTHONPATH=src timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 python3 benchmarks/sanitize_layer_norm.py > "$R/racecheck_ln_new.log" 2>&1; echo "racecheck ln_new exit $? at $(el) s"; tail -n 1 "$R/racecheck_ln_new.log") &
(cd "$T/addrms_new" && PYTHONPATH=src timeout 100 compute-sanitizer --tool racecheck --error-exitcode 1 python3 benchmarks/sanitize_fused_add_rms_norm.py > "$R/racecheck_addrms_new.log" 2>&1; echo "racecheck addrms_new exit $? at $(el) s"; tail -n 1 "$R/racecheck_addrms_new.log") &
wait; pack
run() {  # run DIR OP
  (cd "$T/$1" && B_SHAPES=$S timeout 90 python3 "$TIME" "$2" "$1" "$R/time_$1.json" > "$R/time_$1.log" 2>&1
   echo "time $1 exit $? at $(el) s")
}
S="1024x65536,4096x16384,8192x8192,32768x4096,8192x4095"
run ln_old layer_norm; run ln_new layer_norm; pack
run addrms_old fused_add_rms_norm; run addrms_new fused_add_rms_norm; pack
echo "done at $(el) s"
