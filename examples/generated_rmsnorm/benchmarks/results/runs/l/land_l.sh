#!/usr/bin/env bash
# land_l.sh L6A L6B, NOT YET RUN: after call L6 (call_l6.sh a and b), given the folders its archives
# unpack to (res_l6a/ and res_l6b/, kept as runs/l/l6a/ and runs/l/l6b/), puts branch
# issue11-staged-sums' GPU records where tests/test_results.py and `scaffold results-table` read
# them, as calls N and P2's were put:
# - the RMSNorm example (results/): L6a's suite, L2's benchmark;
# - LayerNorm (results/norms/layer_norm/): L5's suite (one GPU, with compute-sanitizer), L6b's tests
#   with both GPUs visible in two_gpus/, L1's benchmark;
# - the residual-add RMSNorm and LayerNorm (results/norms/*/): L6a's suites, their build logs, L1's
#   benchmarks;
# - the two-family project (results/two_families/two_gpus/): L6b's suite, the bundle's commit.txt and
#   the copier answers. (results/two_families/ itself, the CUDA cases run by the bundle's run.sh,
#   stays from its earlier run, at the commit its commit.txt names.)
# It checks everything first and copies nothing unless every check passes: each file is there, each
# suite passed with nothing failed, the L6 runs had two GPUs, and each norm's suite and benchmark
# measured the same kernel sources. Then: `scaffold results-table --write`, and the repository's tests.
set -eu
A=$(cd "$1" && pwd); B=$(cd "$2" && pwd)
L=$(cd "$(dirname "$0")" && pwd); OUT=$(cd "$L/../.." && pwd)  # benchmarks/results
suite_files="gpu_suite.json tests.log sanitizer_memcheck.log sanitizer_racecheck.log"
check() {  # check SUITE_JSON BENCH_JSON MIN_GPUS: passed, nothing failed, the GPUs, the same sources
  python3 - "$@" <<'PY'
import json, sys
suite_path, bench_path, gpus = sys.argv[1], sys.argv[2], int(sys.argv[3])
suite, bench = json.load(open(suite_path)), json.load(open(bench_path))
env = suite["environment"]
problems = [
    message
    for bad, message in (
        (suite["failed"] != [] or not suite["tests"]["ok"], f"{suite_path}: failed {suite['failed']}"),
        (env.get("gpu_count", 1) < gpus, f"{suite_path}: {env.get('gpu_count')} GPU(s), not {gpus}"),
        (env["sources_sha256"] != bench["meta"]["sources_sha256"], f"{suite_path}, {bench_path}: other sources"),
    )
    if bad
]
sys.exit("\n".join(problems) or 0)
PY
}
need() { for f in "$@"; do [ -f "$f" ] || { echo "missing: $f"; exit 1; }; done; }
# The checks.
need "$B/commit.txt"
for f in $suite_files build.log; do need "$A/rmsnorm/$f" "$L/l5/layer_norm/$f"; done
need "$B/layer_norm/gpu_suite.json" "$B/layer_norm/tests.log" "$B/two_families/gpu_suite.json" "$B/two_families/tests.log"
for p in fused_add_rms_norm fused_add_layer_norm; do
  for f in $suite_files; do need "$A/$p/$f"; done
  need "$A/build_$p.log" "$L"/l1/$p/{bench_$p.json,bench_$p.png,benchmark.log}
done
need "$L"/l2/rmsnorm/{bench_rms_norm.json,bench_rms_norm.png,benchmark.log} \
  "$L"/l1/layer_norm/{bench_layer_norm.json,bench_layer_norm.png,benchmark.log}
check "$A/rmsnorm/gpu_suite.json" "$L/l2/rmsnorm/bench_rms_norm.json" 2
check "$L/l5/layer_norm/gpu_suite.json" "$L/l1/layer_norm/bench_layer_norm.json" 1
check "$B/layer_norm/gpu_suite.json" "$L/l1/layer_norm/bench_layer_norm.json" 2
for p in fused_add_rms_norm fused_add_layer_norm; do check "$A/$p/gpu_suite.json" "$L/l1/$p/bench_$p.json" 2; done
python3 - "$B/two_families/gpu_suite.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
passed = run["failed"] == [] and run["tests"]["ok"] and run["environment"]["gpu_count"] >= 2
sys.exit(0 if passed else f"{sys.argv[1]}: not passed on two GPUs")
PY
# The copies.
for f in $suite_files build.log; do cp "$A/rmsnorm/$f" "$OUT/$f"; done
cp "$L"/l2/rmsnorm/{bench_rms_norm.json,bench_rms_norm.png,benchmark.log} "$OUT/"
N=$OUT/norms/layer_norm
for f in $suite_files build.log; do cp "$L/l5/layer_norm/$f" "$N/$f"; done
mkdir -p "$N/two_gpus" && cp "$B"/layer_norm/{gpu_suite.json,tests.log} "$N/two_gpus/"
cp "$L"/l1/layer_norm/{bench_layer_norm.json,bench_layer_norm.png,benchmark.log} "$N/"
for p in fused_add_rms_norm fused_add_layer_norm; do
  N=$OUT/norms/$p
  for f in $suite_files; do cp "$A/$p/$f" "$N/$f"; done
  cp "$A/build_$p.log" "$N/build.log"
  cp "$L"/l1/$p/{bench_$p.json,bench_$p.png,benchmark.log} "$N/"
done
T=$OUT/two_families/two_gpus
cp "$B"/two_families/{gpu_suite.json,tests.log} "$B/commit.txt" "$T/"
cp "$B"/two_families/copier-answers*.yml "$T/"
echo "landed: now scaffold results-table --write"
