#!/usr/bin/env bash
# GPU call G3-3 (issue 11), one H200, on the same .gpu/ as calls G3 and G3-2, whose memcheck runs of
# the RMSNorm example and of LayerNorm ended "sanitizer case: done", 0 errors, then "terminate called
# without an active exception" (exit 6) as the process ended: the two projects' GPU suites again, two at
# once; then, to see how often the workload's process aborts as it ends, each project's sanitizer
# workload three times under memcheck and five times alone, exit codes in $R/exits.txt.
# Results in $OUT/res_g3_3a.tgz.
G=$(cd "$(dirname "$0")" && pwd); root=$(git -C "$G" rev-parse --show-toplevel 2>/dev/null || pwd)
CALL=g3_3 FAR=0 BENCH_UNTIL=0 SUITES="rmsnorm layer_norm" SUITE_LIMIT=400 bash "$G/../g2/call_g2.sh" a
R=/tmp/res_g3_3a
export PYTORCH_NO_CUDA_MEMORY_CACHING=1  # as gpu_suite.py runs the workload
for p in rmsnorm:rms_norm layer_norm:layer_norm; do
  IFS=: read -r dir op <<< "$p"
  cd "$root/.gpu/$dir" || continue
  for i in 1 2 3; do
    [ "$SECONDS" -lt 560 ] || break
    timeout 40 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 1 python3 "benchmarks/sanitize_$op.py" > "$R/memcheck_${op}_$i.log" 2>&1
    echo "$op memcheck $i exit $?" >> "$R/exits.txt"
  done
  for i in 1 2 3 4 5; do
    [ "$SECONDS" -lt 575 ] || break
    timeout 20 python3 "benchmarks/sanitize_$op.py" > "$R/plain_${op}_$i.log" 2>&1
    echo "$op alone $i exit $?" >> "$R/exits.txt"
  done
done
cat "$R/exits.txt"; echo "done at $SECONDS s"
tar czf "$OUT/res_g3_3a.tgz" -C /tmp res_g3_3a
