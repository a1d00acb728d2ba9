#!/usr/bin/env bash
# GPU call D, one H200: the example's GPU suite with nothing else running on the host (in call C,
# silu's and sigmoid's runs beside it slowed the host-bound per-call times).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++
B=$(cd "$(dirname "$0")" && pwd)
R=$B/res_d; mkdir -p "$R"
nvidia-smi > "$R/nvidia_smi_d.txt" 2>&1
(cd "$B/example" && timeout 560 python3 benchmarks/gpu_suite.py --out "$R/example") > "$R/example_suite.log" 2>&1
echo "example suite exit $?"
tar czf "$OUT/results_d.tgz" -C "$B" res_d
tail -n 4 "$R/example_suite.log"
