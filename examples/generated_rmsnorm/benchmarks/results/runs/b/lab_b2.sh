#!/usr/bin/env bash
# Lab B2 (issue 11): the backward of rows split over a cluster, its blocks exchanging each row's sums by
# st.async into their peers' slots (each completing the peer's mbarrier), against main's cluster barrier
# a row (cb2b082), in the RMSNorm example and the LayerNorm project rendered from each (old: main; new:
# the commit in commit.txt). Builds the four, runs the new builds' CUDA tests and compute-sanitizer on
# the new RMSNorm's workload, times both (b_time.py: each case checked against float64 first), then
# Nsight Compute of the new bfloat16 RMSNorm backward kernel at 1024x65536.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res2; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/commit.txt" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
for p in rms_new ln_new rms_old ln_old; do
  (cd "$T/$p" && MAX_JOBS=4 FORCE_CUDA=1 timeout 280 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s") &
done
wait
pack() { tar czf "$OUT/b2.tgz" -C "$T" res2; }
for p in rms_new ln_new; do
  (cd "$T/$p" && PYTHONPATH=src timeout 60 python3 -m pytest -q -x -p no:cacheprovider tests -k cuda > "$R/tests_$p.log" 2>&1; echo "tests $p exit $? at $(el) s"; tail -n 1 "$R/tests_$p.log")
done
for tool in memcheck racecheck; do
  (cd "$T/rms_new" && PYTHONPATH=src timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 python3 benchmarks/sanitize_rms_norm.py > "$R/sanitizer_$tool.log" 2>&1; echo "$tool exit $? at $(el) s"; tail -n 1 "$R/sanitizer_$tool.log") &
done
wait; pack
run() {  # run DIR OP
  (cd "$T/$1" && B_SHAPES=$3 timeout ${TL:-60} python3 "$T/b_time.py" "$2" "$1" "$R/time_$1.json" > "$R/time_$1.log" 2>&1
   echo "time $1 exit $? at $(el) s")
}
S="1024x65536,2048x40960,512x131072,4096x16384"
run rms_old rms_norm $S; run rms_new rms_norm $S; pack
run ln_old layer_norm $S; run ln_new layer_norm $S; pack
(cd "$T/rms_new" && timeout 60 ncu --profile-from-start off --clock-control none -k regex:backward_kernel --section LaunchStats \
   --section Occupancy --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
   --section SchedulerStats python3 "$T/t1_ncu.py" rms_norm ours bfloat16 1024 65536 backward > "$R/ncu_rms_new_1024x65536.txt" 2>&1
 echo "ncu exit $? at $(el) s")
pack
echo "done at $(el) s"
