#!/usr/bin/env bash
# GPU call X3 (issue 11), one H200, the same commit as calls X1 and X2 (commit.txt): the gelu
# example's GPU suite alone (build, tests, compute-sanitizer, benchmark; no just-in-time rebuild
# timing), which ran out of its time limit in call X2 while three other projects built beside it.
# Results in res_x3, packed into $OUT/results_x3.tgz.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd)
R=$X/res_x3; mkdir -p "$R"
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_x3.txt" 2>&1
(cd "$X/example" && timeout 450 python3 benchmarks/gpu_suite.py --skip-jit --out "$R/example") > "$R/example_suite.log" 2>&1
echo "example suite exit $?"
tar czf "$OUT/results_x3.tgz" -C "$X" res_x3
tail -n 3 "$R/example_suite.log"
