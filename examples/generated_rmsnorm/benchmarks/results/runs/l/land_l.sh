#!/usr/bin/env bash
# land_l.sh RES_L6A RES_L6B, NOT YET RUN: after call L6 (call_l6.sh a and b, unpacked into the two
# folders given), puts branch issue11-staged-sums' GPU records where tests/test_results.py and
# `scaffold results-table` read them, as calls N and P2's were put:
# - the RMSNorm example (results/): L6a's suite, L2's benchmark;
# - LayerNorm (results/norms/layer_norm/): L5's suite (one GPU, with compute-sanitizer), L6b's tests
#   with both GPUs visible in two_gpus/, L1's benchmark;
# - the residual-add RMSNorm and LayerNorm (results/norms/*/): L6a's suites, their build logs, L1's
#   benchmarks;
# - the two-family project (results/two_families/two_gpus/): L6b's suite, the bundle's commit.txt
#   and the copier answers.
# Each norm's suite and benchmark must have measured the same kernel sources; it stops otherwise.
# Then: `scaffold results-table --write`, and the repository's tests.
set -eu
A=$(cd "$1" && pwd); B=$(cd "$2" && pwd)
L=$(cd "$(dirname "$0")" && pwd); OUT=$(cd "$L/../.." && pwd)  # benchmarks/results
same() {  # same SUITE_JSON BENCH_JSON: the sources both measured
  python3 - "$1" "$2" <<'PY'
import json, sys
suite, bench = (json.load(open(p)) for p in sys.argv[1:3])
a, b = suite["environment"]["sources_sha256"], bench["meta"]["sources_sha256"]
sys.exit(0 if a == b else f"{sys.argv[1]} measured {a[:12]}, {sys.argv[2]} {b[:12]}")
PY
}
suite_files="gpu_suite.json tests.log sanitizer_memcheck.log sanitizer_racecheck.log"
# The RMSNorm example.
same "$A/rmsnorm/gpu_suite.json" "$L/l2/rmsnorm/bench_rms_norm.json"
for f in $suite_files build.log; do cp "$A/rmsnorm/$f" "$OUT/$f"; done
cp "$L"/l2/rmsnorm/{bench_rms_norm.json,bench_rms_norm.png,benchmark.log} "$OUT/"
# LayerNorm.
N=$OUT/norms/layer_norm
same "$L/l5/layer_norm/gpu_suite.json" "$L/l1/layer_norm/bench_layer_norm.json"
same "$B/layer_norm/gpu_suite.json" "$L/l1/layer_norm/bench_layer_norm.json"
for f in $suite_files build.log; do cp "$L/l5/layer_norm/$f" "$N/$f"; done
mkdir -p "$N/two_gpus" && cp "$B"/layer_norm/{gpu_suite.json,tests.log} "$N/two_gpus/"
cp "$L"/l1/layer_norm/{bench_layer_norm.json,bench_layer_norm.png,benchmark.log} "$N/"
# The residual-add operators.
for p in fused_add_rms_norm fused_add_layer_norm; do
  N=$OUT/norms/$p
  same "$A/$p/gpu_suite.json" "$L/l1/$p/bench_$p.json"
  for f in $suite_files; do cp "$A/$p/$f" "$N/$f"; done
  cp "$A/build_$p.log" "$N/build.log"
  cp "$L"/l1/$p/{bench_$p.json,bench_$p.png,benchmark.log} "$N/"
done
# The two-family project on two GPUs.
T=$OUT/two_families/two_gpus
cp "$B"/two_families/{gpu_suite.json,tests.log} "$B/commit.txt" "$T/"
cp "$B"/two_families/copier-answers*.yml "$T/"
echo "landed: now scaffold results-table --write"
