#!/usr/bin/env bash
# GPU call W3 (issue 11), one H200, the LayerNorm project of call W (same commit, commit.txt):
# its GPU suite with compute-sanitizer memcheck and racecheck, which call W skipped for it (the
# benchmark here is --quick, a smoke test: call W's benchmark stands). Results in res_w3.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
B=$(cd "$(dirname "$0")" && pwd)
R=$B/res_w3; mkdir -p "$R"
cp "$B/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_w3.txt" 2>&1
(cd "$B/layer_norm" && rm -rf build && timeout 230 python3 benchmarks/gpu_suite.py --skip-jit --out "$R/layer_norm" --bench-args --quick) > "$R/layer_norm_suite.log" 2>&1
echo "layer_norm suite exit $?"
tar czf "$OUT/results_w3.tgz" -C "$B" res_w3
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed" "$R"/layer_norm/*.log | tail -n 4
