#!/usr/bin/env bash
# Lab S3 (issue 11), two H200s: the RMSNorm example's and the two-family project's tests with a second
# CUDA device (test_second_device runs; it skips on one GPU), the LayerNorm project's second-device
# tests, and a two-process DistributedDataParallel training step with the RMSNorm layer (ddp_smoke.py).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd); R=$X/s3; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_s3.txt" 2>&1
for p in rmsnorm mixed layer_norm; do
  (cd "$X/$p" && MAX_JOBS=10 timeout 200 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(( $(date +%s) - start )) s") &
done
wait
(cd "$X/rmsnorm" && PYTHONPATH=src timeout 60 python3 "$X/ddp_smoke.py" "$R/ddp.pt" > "$R/ddp_smoke.log" 2>&1; echo "ddp exit $? at $(( $(date +%s) - start )) s"; tail -n 2 "$R/ddp_smoke.log")
tar czf "$OUT/s3.tgz" -C "$X" s3
(cd "$X/rmsnorm" && PYTHONPATH=src timeout 90 python3 -m pytest -q -p no:cacheprovider tests -rs > "$R/tests_rmsnorm.log" 2>&1; echo "tests rmsnorm exit $? at $(( $(date +%s) - start )) s"; tail -n 1 "$R/tests_rmsnorm.log")
(cd "$X/layer_norm" && PYTHONPATH=src timeout 30 python3 -m pytest -v -p no:cacheprovider tests -k second_device > "$R/tests_layer_norm_second_device.log" 2>&1; echo "tests layer_norm exit $? at $(( $(date +%s) - start )) s"; tail -n 1 "$R/tests_layer_norm_second_device.log")
(cd "$X/mixed" && PYTHONPATH=src timeout 90 python3 -m pytest -q -p no:cacheprovider tests -rs > "$R/tests_mixed.log" 2>&1; echo "tests mixed exit $? at $(( $(date +%s) - start )) s"; tail -n 1 "$R/tests_mixed.log")
tar czf "$OUT/s3.tgz" -C "$X" s3
