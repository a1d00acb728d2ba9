#!/usr/bin/env bash
# GPU call E, one H200: the example's GPU suite alone on the machine, after forward-mode AD was
# refused, the fake kernels gained the checks, the CPU loops were tiled and each operator's math
# moved into its struct (csrc/ changed; the CUDA kernels' PTX did not).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++
B=$(cd "$(dirname "$0")" && pwd)
R=$B/res_e; mkdir -p "$R"
nvidia-smi > "$R/nvidia_smi_e.txt" 2>&1
(cd "$B/example" && timeout 560 python3 benchmarks/gpu_suite.py --out "$R/example") > "$R/example_suite.log" 2>&1
echo "example suite exit $?"
tar czf "$OUT/results_e.tgz" -C "$B" res_e
tail -n 4 "$R/example_suite.log"
