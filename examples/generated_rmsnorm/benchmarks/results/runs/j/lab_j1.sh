#!/usr/bin/env bash
# Lab J1 (issue 11), one H200: the forward's statistics of LayerNorm as sums about the row's first
# element, summed again about the mean where that element lies far from it (ForwardSums; .gpu/j/new:
# csrc/row_norm/cuda.cuh from j1_new.patch), against Chan's combination of (count, mean, squared
# deviations) (.gpu/j/old: the renderings of 9ae7143), for LayerNorm, the residual-add LayerNorm and
# RMSNorm (whose kernels change only in the type they reduce). Builds the three new projects, then the
# three old ones while the new ones run their CUDA test cases (pytest -k cuda), then lab P's
# mean_error.py on the new LayerNorm builds, then the benchmarks (eager only, no torch.compile or
# Liger) new, old, new, old while the call has time (RMSNorm new, old only). .gpu/: prepare_j.sh. Results tarred into $OUT/res_j1.tgz.
. "$(dirname "$0")/../call_lib.sh" j1
J=$X/j
declare -A OP=([rmsnorm]=rms_norm [layer_norm]=layer_norm [fused_add_layer_norm]=fused_add_layer_norm)
PROJECTS=(layer_norm fused_add_layer_norm rmsnorm)
build() {
  (cd "$J/$1" && MAX_JOBS=5 FORCE_CUDA=1 timeout 240 python3 setup.py build_ext --inplace > "$R/build_${1/\//_}.log" 2>&1)
  echo "build $1 exit $? at $(elapsed) s"
}
for p in "${PROJECTS[@]}"; do build "new/$p" & done; wait
for p in "${PROJECTS[@]}"; do build "old/$p" & done
for p in "${PROJECTS[@]}"; do
  (cd "$J/new/$p" && timeout 240 python3 -m pytest -q -k cuda tests > "$R/tests_new_$p.log" 2>&1
   echo "tests new/$p exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_new_$p.log")") &
done
wait; pack
for p in layer_norm fused_add_layer_norm; do
  (cd "$J/new/$p" && PYTHONPATH=src timeout 60 python3 "$G/../p/mean_error.py" "$p") >> "$R/mean_error_new.txt" 2>&1
done
echo "mean_error done at $(elapsed) s"; pack
bench() {  # bench VERSION PROJECT ROUND
  local op=${OP[$2]}
  (cd "$J/$1/$2" && timeout 75 python3 "benchmarks/bench_$op.py" --shapes 1024x65536 4096x16384 32768x4096 8192x8192 8192x4095 \
     --dtypes bfloat16 float16 float32 --no-compile --no-peers --json "$R/bench_${3}_${1}_$2.json" > "$R/bench_${3}_${1}_$2.log" 2>&1)
  echo "bench $3 $1/$2 exit $? at $(elapsed) s"; pack
}
for round in 1 2; do
  for p in "${PROJECTS[@]}"; do
    [ "$round" = 2 ] && [ "$p" = rmsnorm ] && continue
    for v in new old; do
      [ "$(elapsed)" -lt 500 ] || { echo "bench $round $v/$p: no time left"; continue; }
      bench "$v" "$p" "$round"
    done
  done
done
echo "done at $(elapsed) s"; pack
