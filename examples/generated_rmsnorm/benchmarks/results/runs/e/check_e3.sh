#!/usr/bin/env bash
# Check E3 (issue 11): the RMSNorm example of the working tree (the cluster-placement changes after
# X27's review) builds and passes the tests of cluster placement, exchange, staging and the settings,
# before call X28 records everything.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); E=$(cd "$T/../.." && pwd)/examples/generated_rmsnorm
R=$OUT/e3; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/check_e3.sh" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
(cd "$E" && MAX_JOBS=14 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build.log" 2>&1; echo "build exit $? at $(el) s")
tail -n 2 "$R/build.log" > "$R/build_tail.log"; rm "$R/build.log"
(cd "$E" && timeout 200 python3 -m pytest -rs -q -p no:cacheprovider tests -k "cannot_place or malformed or exchange or wide_rows or less_shared or few_row_groups or cap_between" > "$R/tests.log" 2>&1; echo "tests exit $? at $(el) s"; tail -n 3 "$R/tests.log")
echo "done at $(el) s"
