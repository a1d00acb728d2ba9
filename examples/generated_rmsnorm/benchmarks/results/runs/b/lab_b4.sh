#!/usr/bin/env bash
# Lab B4 (issue 11): after the review of lab B3, the RMSNorm example at the commit in commit.txt (the
# exchange's wait with cluster-scope acquire, the tests' kernel-name parsing fixed, a test of a cluster
# walking many rows): builds it, then runs the CUDA tests that read the profiler's kernel names and those
# of clusters walking many rows (not among -k cuda's, which labs B2 and B3 ran).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res4; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/commit.txt" "$R/"
(cd "$T/rms_new" && MAX_JOBS=16 FORCE_CUDA=1 timeout 120 python3 setup.py build_ext --inplace > "$R/build_rms_new.log" 2>&1; echo "build exit $? at $(el) s")
(cd "$T/rms_new" && PYTHONPATH=src timeout 60 python3 -m pytest -q -p no:cacheprovider tests \
   -k "exchange or few_row_groups or less_shared_memory or above_the_most or cap_between or staged_in_shared" \
   > "$R/tests_rms_new.log" 2>&1; echo "tests exit $? at $(el) s"; tail -n 1 "$R/tests_rms_new.log")
tar czf "$OUT/b4.tgz" -C "$T" res4
