#!/usr/bin/env bash
# instruction_sets.sh PROJECT: PROJECT is a LayerNorm project rendered by the template at main ec2daf3
# (`scaffold gpu-bundle DIR`, DIR/layer_norm), whose build_config.py compiled the CPU loops for AVX2.
# Builds it twice: as it is (AVX2) and with build_config.py's AVX2_FLAGS replaced by AVX512's (the
# flags and macros that the template's CPU_ISA=avx512 now gives), then runs the benchmark
# (benchmarks/bench_layer_norm.py --device cpu --threads 1 2) on the AVX2 build once (run a), then on
# each in turn, AVX512 first, twice (runs b and c). Writes <build>_bench_<run>.{json,log} here; then
# compare.py. Ran on this repository's development machine (2 cores of an AMD EPYC with AVX512,
# torch 2.13.0+cpu) on 2026-11-29, nothing else running. (Since f4fd0a6 the same two builds are
# `CPU_ISA=avx2` and `CPU_ISA=avx512`.) VENV: the venv with torch (default /tmp/venv).
set -eu
P=$(cd "$1" && pwd); HERE=$(cd "$(dirname "$0")" && pwd); PY=${VENV:-/tmp/venv}/bin/python
W=$(mktemp -d)
cp -r "$P" "$W/avx2"; cp -r "$P" "$W/avx512"; rm -rf "$W"/*/build "$W"/*/src/*/_C*.so
old='AVX2_FLAGS = ["-mavx2", "-mfma", "-mf16c", "-DCPU_CAPABILITY=AVX2", "-DCPU_CAPABILITY_AVX2"]'
new='AVX2_FLAGS = ["-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq", "-mfma", "-mf16c", "-DCPU_CAPABILITY=AVX512", "-DCPU_CAPABILITY_AVX512"]'
grep -qF "$old" "$W/avx512/build_config.py"
sed -i "s|$(printf '%s' "$old" | sed 's/[][\.*^$]/\\&/g')|$new|" "$W/avx512/build_config.py"
grep -qF "$new" "$W/avx512/build_config.py"
for b in avx2 avx512; do (cd "$W/$b" && MAX_JOBS=2 "$PY" setup.py build_ext --inplace > /dev/null 2>&1); done
bench() { (cd "$W/$1" && "$PY" benchmarks/bench_layer_norm.py --device cpu --threads 1 2 --json "$HERE/$1_bench_$2.json" > "$HERE/$1_bench_$2.log" 2>&1); }
bench avx2 a
for run in b c; do bench avx512 $run; bench avx2 $run; done
"$PY" "$HERE/compare.py" > "$HERE/compare.txt"
