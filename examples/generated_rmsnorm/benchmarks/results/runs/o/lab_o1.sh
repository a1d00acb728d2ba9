#!/usr/bin/env bash
# Lab O1 (issue 11): rows whose N is not a multiple of the vector width, read from each row's first
# vector boundary (kShifted). Builds the four norm projects rendered by prepare.sh, times odd N
# against the aligned neighbour (no peers), then runs each project's tests and sanitizers.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd)
R=$OUT/o1; mkdir -p "$R"
cp "$X/commit.txt" "$R/"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
NORMS="rmsnorm layer_norm fused_add_rms_norm fused_add_layer_norm"
for p in $NORMS; do
  (cd "$X/$p" && MAX_JOBS=4 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(elapsed) s") &
done
wait
for p in rmsnorm layer_norm; do
  (cd "$X/$p" && timeout 120 python3 benchmarks/bench_$( [ $p = rmsnorm ] && echo rms_norm || echo $p ).py \
     --shapes 8192x4095 8192x4096 1000x4095 32768x4095 --no-peers --json "$R/bench_$p.json" > "$R/bench_$p.log" 2>&1
   echo "bench $p exit $? at $(elapsed) s")
done
for p in $NORMS; do
  (cd "$X/$p" && timeout 150 python3 benchmarks/gpu_suite.py --skip-build --skip-benchmark --skip-jit --out "$R/$p") > "$R/${p}_suite.log" 2>&1
  echo "suite $p exit $? at $(elapsed) s"; grep -h "passed\|failed\|error" "$R/$p/tests.log" 2>/dev/null | tail -n 2
done
