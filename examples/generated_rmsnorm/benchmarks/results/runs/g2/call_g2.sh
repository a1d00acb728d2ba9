#!/usr/bin/env bash
# GPU calls G2 (issue 11), one H200: the template at .gpu/commit.txt (the LayerNorm backward's second
# look at far rows, runs/g/far_row_sums.patch, applied), its projects rendered by prepare.sh into .gpu/.
# Usage: call_g2.sh a | call_g2.sh b PROJECT...   Results tarred into $OUT/res_${CALL}PART.tgz.
# Environment: CALL (the results' name, g2 unless set: calls G3 ran part a as g3), FAR=0 (part a without
# the far rows' checks), BENCH_UNTIL (part a's benchmarks start only while one more ends by then, in
# seconds from the start: 585 unless set), SUITES (part a's projects, all five unless set: rmsnorm,
# layer_norm, fused_add_rms_norm, fused_add_layer_norm, mixed), SUITE_LIMIT (seconds each of the three
# other norms' suites may take after its build: 400 unless set).
#  a: the projects of SUITES (all five unless set) built at once; then at once: the RMSNorm example's
#     GPU suite (its own build, tests, compute-sanitizer), the other three norms' suites (tests,
#     compute-sanitizer) and the two-family project's CUDA tests; then far_rows_time.py and G1's
#     far_check.py on the two LayerNorm projects; then the benchmarks, one at a time, as long as one
#     more fits the call's 600 s (of SUITES' projects only, as the far checks).
#  b: the projects named built at once, then their benchmarks one at a time.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
G=$(cd "$(dirname "$0")" && pwd); root=$(git -C "$G" rev-parse --show-toplevel 2>/dev/null || pwd)
X=$root/.gpu; part=$1; shift
CALL=${CALL:-g2}; R=/tmp/res_$CALL$part; rm -rf "$R"; mkdir -p "$R"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
pack() { tar czf "$OUT/res_$CALL$part.tgz" -C /tmp "res_$CALL$part"; }
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi.txt" 2>&1
python3 -c 'import torch; print(torch.__version__, torch.version.cuda)' > "$R/torch.txt" 2>&1
python3 -m pip install --no-deps --no-index "$root"/.whl/liger_kernel-*.whl > "$R/pip.log" 2>&1; echo "liger install exit $?"
build() {  # build PROJECT: in place, log in $R/build_PROJECT.log
  (cd "$X/$1" && MAX_JOBS=4 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$1.log" 2>&1)
  echo "build $1 exit $? at $(elapsed) s"
}
bench() {  # bench PROJECT OPERATOR: as gpu_suite.py runs it, with the plot
  local p=$1 op=$2; mkdir -p "$R/$p"
  (cd "$X/$p" && timeout 200 python3 "benchmarks/bench_$op.py" --json "$R/$p/bench_$op.json" > "$R/$p/benchmark.log" 2>&1
   echo "bench $p exit $? at $(elapsed) s"
   python3 -c "import sys; sys.path.insert(0, 'benchmarks'); import gpu_suite; from pathlib import Path
gpu_suite.plot('$op', Path('$R/$p/bench_$op.json'), Path('$R/$p/bench_$op.png'))" > /dev/null 2>&1)
}
declare -A OP=([rmsnorm]=rms_norm [layer_norm]=layer_norm [fused_add_rms_norm]=fused_add_rms_norm [fused_add_layer_norm]=fused_add_layer_norm)
if [ "$part" = a ]; then
  suites=" ${SUITES:-rmsnorm layer_norm fused_add_rms_norm fused_add_layer_norm mixed} "
  for p in $suites; do
    case $p in rmsnorm|layer_norm|fused_add_rms_norm|fused_add_layer_norm|mixed) ;; *) echo "SUITES: no project $p"; exit 2 ;; esac
  done
  [[ $suites == *" rmsnorm "* ]] && (cd "$X/rmsnorm" && MAX_JOBS=4 timeout 560 python3 benchmarks/gpu_suite.py --skip-benchmark --skip-jit --out "$R/rmsnorm" > "$R/rmsnorm_suite.log" 2>&1
   echo "rmsnorm suite exit $? at $(elapsed) s") &
  for p in layer_norm fused_add_rms_norm fused_add_layer_norm; do
    [[ $suites == *" $p "* ]] || continue
    (build $p && cd "$X/$p" && timeout ${SUITE_LIMIT:-400} python3 benchmarks/gpu_suite.py --skip-build --skip-benchmark --skip-jit --out "$R/$p" > "$R/${p}_suite.log" 2>&1
     echo "$p suite exit $? at $(elapsed) s") &
  done
  [[ $suites == *" mixed "* ]] && (build mixed && mkdir -p "$R/two_families" && cd "$X/mixed" && timeout 200 python3 -m pytest -q -p no:cacheprovider tests -k cuda > "$R/two_families/tests_cuda.log" 2>&1
   echo "mixed cuda tests exit $? at $(elapsed) s: $(tail -n 1 "$R/two_families/tests_cuda.log")") &
  wait; pack
  for p in layer_norm fused_add_layer_norm; do
    [ "${FAR:-1}" = 0 ] && break
    [[ $suites == *" $p "* ]] || continue
    (cd "$X/$p" && timeout 60 python3 "$G/far_rows_time.py" "example_$p" "$p" && mv far_rows_time.json "$R/far_rows_time_$p.json") >> "$R/far_rows_time.txt" 2>&1
    (cd "$X/$p" && timeout 30 python3 "$G/../g/far_check.py" "$p" cuda) >> "$R/far_check.txt" 2>&1
  done
  cat "$R/far_rows_time.txt" "$R/far_check.txt" 2>/dev/null; echo "far checks done at $(elapsed) s"; pack
  for p in rmsnorm layer_norm fused_add_rms_norm fused_add_layer_norm; do
    [[ $suites == *" $p "* ]] || continue  # benchmarks only what this call built
    if [ $(( $(elapsed) + 135 )) -lt ${BENCH_UNTIL:-585} ]; then bench $p "${OP[$p]}"; echo "$p" >> "$R/benched.txt"; pack; fi
  done
else
  # (.gpu/ does not outlast a call: carried again, it comes without the last call's builds.)
  for p in "$@"; do build "$p" & done
  wait
  for p in "$@"; do bench "$p" "${OP[$p]}"; pack; done
fi
echo "done at $(elapsed) s"; pack
