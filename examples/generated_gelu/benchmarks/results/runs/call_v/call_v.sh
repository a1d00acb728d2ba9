#!/usr/bin/env bash
# GPU call V, one H200: call K (the example's GPU suite (build, tests, sanitizers, benchmark;
# the just-in-time rebuild time stands from call G), then the exact-erf gelu project's tests and
# benchmark), then host_cell.py: the host path of
# the host-bound cells. Results in res_v and host_cell_v.log.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
B=$(cd "$(dirname "$0")" && pwd)
C=${CALL:-v}
R=$B/res_$C; mkdir -p "$R"
nvidia-smi > "$R/nvidia_smi_h200_$C.txt" 2>&1
(cd "$B/gelu" && FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_gelu.log" 2>&1; echo "build gelu exit $?") &
(cd "$B/example" && timeout 330 python3 benchmarks/gpu_suite.py --skip-jit --out "$R/example") > "$R/example_suite.log" 2>&1
echo "example suite exit $?"
wait
(cd "$B/gelu" && timeout 200 python3 benchmarks/gpu_suite.py --skip-build --skip-sanitizer --skip-jit --out "$R/activations/gelu") > "$R/suite_gelu.log" 2>&1
echo "gelu suite exit $?"
tar czf "$OUT/results_$C.tgz" -C "$B" "res_$C"
(cd "$B" && timeout 150 python3 host_cell.py) > "$OUT/host_cell_$C.log" 2>&1; echo "host cell exit $?"
tail -n 3 "$R/example_suite.log" "$R/suite_gelu.log"
