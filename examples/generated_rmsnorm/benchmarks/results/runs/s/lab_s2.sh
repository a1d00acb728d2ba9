#!/usr/bin/env bash
# Lab S2 (issue 11): the test settings' tests (malformed values refused, oversized values capping
# nothing: kernels and gradient bits, on rows staged one block an SM and on short rows whose grid is
# the default cap) of the four norm projects at the commit in commit.txt, after X15's review.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd); R=$X/s2; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_s2.txt" 2>&1
NORMS="rmsnorm layer_norm fused_add_rms_norm fused_add_layer_norm"
for p in $NORMS; do
  (cd "$X/$p" && MAX_JOBS=4 timeout 200 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(( $(date +%s) - start )) s") &
done
wait
for p in $NORMS; do
  (cd "$X/$p" && PYTHONPATH=src timeout 120 python3 -m pytest -v -p no:cacheprovider tests -k "test_setting" > "$R/tests_settings_$p.log" 2>&1; echo "tests $p exit $? at $(( $(date +%s) - start )) s"; tail -n 1 "$R/tests_settings_$p.log")
done
tar czf "$OUT/s2.tgz" -C "$X" s2
