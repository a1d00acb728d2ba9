#!/usr/bin/env bash
# Check D2 (issue 11): after X27's review, the mended cluster-placement test (exact clusters under the
# limit, the residual-add case that falls back from the staged forward's 8 blocks to 4, a skip where
# nothing is above the limit) and skip_without_clusters, in the RMSNorm example (the working tree's, at
# a779e5d) and the residual-add RMSNorm project rendered from it.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); E=$(cd "$T/../.." && pwd)/examples/generated_rmsnorm
R=$OUT/d2; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/check_d2.sh" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
for d in "$E" "$T/addrms"; do
  (cd "$d" && MAX_JOBS=8 FORCE_CUDA=1 timeout 240 python3 setup.py build_ext --inplace > "$R/build_$(basename $d).log" 2>&1; echo "build $(basename $d) exit $? at $(el) s") &
done
wait
for d in "$E" "$T/addrms"; do
  (cd "$d" && timeout 120 python3 -m pytest -rs -q -p no:cacheprovider tests -k "cannot_place or malformed or exchange or wide_rows" > "$R/tests_$(basename $d).log" 2>&1; echo "tests $(basename $d) exit $? at $(el) s"; tail -n 4 "$R/tests_$(basename $d).log")
done
for d in "$E" "$T/addrms"; do tail -n 3 "$R/build_$(basename $d).log" > "$R/build_$(basename $d)_tail.log"; rm "$R/build_$(basename $d).log"; done
echo "done at $(el) s"
