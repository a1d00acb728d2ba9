#!/usr/bin/env bash
# Lab O2 (issue 11): as O1, with the parameters of shifted rows read in the widest loads their
# address allows (load_unaligned). Builds the four norm projects, times odd N (no compile, no
# peers), runs the four test suites, then the sanitizers of RMSNorm and residual-add LayerNorm.
# Everything lands in $OUT/o2.tgz, rewritten after each step.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd)
R=$X/o2; rm -rf "$R"; mkdir -p "$R"
cp "$X/commit.txt" "$R/"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
pack() { tar czf "$OUT/o2.tgz" -C "$X" o2; }
NORMS="rmsnorm layer_norm fused_add_rms_norm fused_add_layer_norm"
for p in $NORMS; do
  (cd "$X/$p" && MAX_JOBS=4 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(elapsed) s") &
done
wait
pack
for p in $NORMS; do
  (cd "$X/$p" && timeout 90 python3 -m pytest -q -p no:cacheprovider tests > "$R/tests_$p.log" 2>&1; echo "tests $p exit $? at $(elapsed) s"; tail -n 1 "$R/tests_$p.log")
done
pack
for p in rmsnorm layer_norm; do
  b=$( [ $p = rmsnorm ] && echo rms_norm || echo $p )
  (cd "$X/$p" && timeout 90 python3 benchmarks/bench_$b.py --shapes 8192x4095 8192x4096 32768x4095 --no-peers --no-compile \
     --json "$R/bench_$p.json" > "$R/bench_$p.log" 2>&1; echo "bench $p exit $? at $(elapsed) s")
done
pack
for p in rmsnorm fused_add_layer_norm; do
  b=$( [ $p = rmsnorm ] && echo rms_norm || echo $p )
  for tool in memcheck racecheck; do
    (cd "$X/$p" && timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 python3 benchmarks/sanitize_$b.py > "$R/${tool}_$p.log" 2>&1
     echo "$tool $p exit $? at $(elapsed) s"; tail -n 2 "$R/${tool}_$p.log")
  done
  pack
done
