#!/usr/bin/env bash
# Check C2 (issue 11): after X26's review, the mended test_cluster_blocks_exchange_each_rows_sums (the
# slice width from the launch, the staging asserted, a skip before sm_90) and the sanitizer's new shape
# (24 x 65536 on 2 row groups), in the RMSNorm example (the working tree's) and the LayerNorm project.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); E=$(cd "$T/../.." && pwd)/examples/generated_rmsnorm
R=$OUT/c2; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/check_c2.sh" "$R/"; git -C "$T/../.." rev-parse HEAD > "$R/commit.txt" 2>/dev/null
for d in "$E" "$T/ln_chk"; do
  (cd "$d" && MAX_JOBS=8 FORCE_CUDA=1 timeout 240 python3 setup.py build_ext --inplace > "$R/build_$(basename $d).log" 2>&1; echo "build $(basename $d) exit $? at $(el) s") &
done
wait
for d in "$E" "$T/ln_chk"; do
  (cd "$d" && timeout 120 python3 -m pytest -q -p no:cacheprovider tests -k "exchange or few_row_groups or less_shared_memory or cap_between" > "$R/tests_$(basename $d).log" 2>&1; echo "tests $(basename $d) exit $? at $(el) s"; tail -n 1 "$R/tests_$(basename $d).log")
done
for tool in memcheck racecheck; do
  (cd "$E" && timeout 200 compute-sanitizer --tool $tool --error-exitcode 1 python3 benchmarks/sanitize_rms_norm.py > "$R/${tool}_rmsnorm.log" 2>&1; echo "$tool exit $? at $(el) s"; tail -n 1 "$R/${tool}_rmsnorm.log") &
done
wait
echo "done at $(el) s"
