#!/usr/bin/env bash
# Lab B3 (issue 11): lab B2 again at the commit in commit.txt, whose backward exchanges a row's sums
# (st.async into the peers' slots, each completing the peer's mbarrier) only in kernels of their own for
# rows split over a cluster (kClustered), against main's cluster barrier a row (cb2b082), in the RMSNorm
# example and the LayerNorm project rendered from each. Builds the four, runs the new builds' CUDA tests
# and compute-sanitizer on the new RMSNorm's workload, then times both (b_time.py: each case checked
# against float64 first) at the shapes of clusters and at three that take none.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res3; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/commit.txt" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
for p in rms_new ln_new rms_old ln_old; do
  (cd "$T/$p" && MAX_JOBS=4 FORCE_CUDA=1 timeout 280 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s") &
done
wait
pack() { tar czf "$OUT/b3.tgz" -C "$T" res3; }
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
S="1024x65536,2048x40960,4096x16384,8192x8192,32768x4096"
run rms_old rms_norm $S; run rms_new rms_norm $S; pack
run ln_old layer_norm $S; run ln_new layer_norm $S; pack
echo "done at $(el) s"
