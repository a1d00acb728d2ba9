#!/usr/bin/env bash
# Lab J2 (issue 11), one H200, after lab J1 (lab_j1.sh): J1's ForwardSums sped the staged forward
# (forward_staged_kernel) up but slowed some forward_rows cells (more registers), and RMSNorm's staged
# forward, whose code changed only in the size of its shared reduction slots, took 3-4% longer. Here:
# .gpu/j2/old (the renderings of 9ae7143), S (ForwardSums in the staged kernel only: S.patch) and
# SA (S with the staged rows' dynamic shared memory aligned to 128 bytes: SA.patch), for LayerNorm,
# the residual-add LayerNorm and RMSNorm. Builds the nine projects at once, runs SA's and S's CUDA
# test cases, then the benchmarks (eager only) at 1024x65536, 2048x32768 and 512x131072 (rows staged
# in shared memory where they fit its slices: not the 16-bit rows at 2048x32768, which registers hold,
# nor the residual-add LayerNorm's float32 rows at 512x131072) and 4096x16384 (registers), old, S,
# SA, then again while the call has time. .gpu/: prepare_j.sh. Results tarred into $OUT/res_j2.tgz.
. "$(dirname "$0")/../call_lib.sh" j2
J=$X/j2
declare -A OP=([rmsnorm]=rms_norm [layer_norm]=layer_norm [fused_add_layer_norm]=fused_add_layer_norm)
PROJECTS=(layer_norm fused_add_layer_norm rmsnorm)
VERSIONS=(old S SA)
build() {
  (cd "$J/$1" && MAX_JOBS=2 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_${1/\//_}.log" 2>&1)
  echo "build $1 exit $? at $(elapsed) s"
}
for v in "${VERSIONS[@]}"; do for p in "${PROJECTS[@]}"; do build "$v/$p" & done; done; wait
for v in S SA; do
  for p in "${PROJECTS[@]}"; do
    (cd "$J/$v/$p" && timeout 120 python3 -m pytest -q -k cuda tests > "$R/tests_${v}_$p.log" 2>&1
     echo "tests $v/$p exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_${v}_$p.log")") &
  done
  wait
done
pack
bench() {  # bench VERSION PROJECT ROUND
  local op=${OP[$2]}
  (cd "$J/$1/$2" && timeout 60 python3 "benchmarks/bench_$op.py" --shapes 1024x65536 2048x32768 512x131072 4096x16384 \
     --dtypes bfloat16 float16 float32 --no-compile --no-peers --json "$R/bench_${3}_${1}_$2.json" > "$R/bench_${3}_${1}_$2.log" 2>&1)
  echo "bench $3 $1/$2 exit $? at $(elapsed) s"; pack
}
for round in 1 2; do
  for p in "${PROJECTS[@]}"; do
    for v in "${VERSIONS[@]}"; do
      [ "$(elapsed)" -lt 545 ] || { echo "bench $round $v/$p: no time left"; continue; }
      bench "$v" "$p" "$round"
    done
  done
done
echo "done at $(elapsed) s"; pack
