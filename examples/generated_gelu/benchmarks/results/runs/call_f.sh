#!/usr/bin/env bash
# GPU call F, one H200: every other activation's project built and its tests run on CUDA at the
# current sources (their benchmarks stand from calls B and C: the kernels' PTX is unchanged since).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++
B=$(cd "$(dirname "$0")" && pwd)
R=$B/res_f; mkdir -p "$R"
for a in gelu relu silu sigmoid; do
  (cd "$B/$a" && FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$a.log" 2>&1; echo "build $a exit $?") &
done
wait
for a in gelu relu silu sigmoid; do
  (cd "$B/$a" && timeout 150 python3 -m pytest -q -p no:cacheprovider tests > "$R/tests_$a.log" 2>&1; echo "tests $a exit $?"; tail -n 1 "$R/tests_$a.log")
done
tar czf "$OUT/results_f.tgz" -C "$B" res_f
