#!/usr/bin/env bash
# GPU call A: the doctor on the machine's own compilers, the example's GPU suite, and a project of
# three operators (two on the family's kernels, one with CUDA kernels of its owner's).
set -u
export PYTHONUNBUFFERED=1
B=$(cd "$(dirname "$0")" && pwd)
R=$B/res; mkdir -p "$R"
nvidia-smi > "$R/nvidia_smi.txt" 2>&1
# 1. The machine's default environment (CC/CXX point at a compiler wrapper under /opt/gcc).
cp -r "$B/example" /tmp/example_default_env
(cd /tmp/example_default_env && echo "CC=${CC:-} CXX=${CXX:-}" && python3 doctor.py; echo "doctor.py exit code $?";
 timeout 300 python3 setup.py build_ext --inplace; echo "setup.py exit code $?") > "$R/default_env.log" 2>&1
# 2. Builds with the system compiler, which links libstdc++ dynamically.
export CC=/usr/bin/gcc CXX=/usr/bin/g++
(cd "$B/example" && timeout 380 python3 benchmarks/gpu_suite.py --out "$R/example") > "$R/example_suite.log" 2>&1
echo "example suite exit $?" >> "$R/exit_codes.txt"
(cd "$B/three_ops" && timeout 200 python3 benchmarks/gpu_suite.py --skip-benchmark --skip-jit --out "$R/three_ops") > "$R/three_ops_suite.log" 2>&1
echo "three_ops suite exit $?" >> "$R/exit_codes.txt"
tar czf "$OUT/results_a.tgz" -C "$B" res
cat "$R/exit_codes.txt"; tail -5 "$R/example_suite.log"; tail -5 "$R/three_ops_suite.log"; grep -E "exit code|problem" "$R/default_env.log" | head
