#!/usr/bin/env bash
# Lab V1 (issue 11): the forward's pipelined cluster kernel (clusters that walk rows, reading the next
# row through the current one's reductions), in the RMSNorm example and the LayerNorm project rendered
# at the commit in commit.txt, with a knob added to their csrc/row_norm/cuda.cuh by hand after
# rendering (LAB_NOPIPE=1: the unpipelined cluster kernel, as before).
# Builds both, runs their CUDA tests, compute-sanitizer on the RMSNorm workload, then times both
# with the knob off and on (v_time.py).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/commit.txt" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
for p in rms ln; do
  (cd "$T/$p" && MAX_JOBS=8 FORCE_CUDA=1 timeout 240 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s") &
done
wait
pack() { tar czf "$OUT/v1.tgz" -C "$T" res; }
for p in rms ln; do
  (cd "$T/$p" && PYTHONPATH=src timeout 100 python3 -m pytest -q -x -p no:cacheprovider tests -k cuda > "$R/tests_$p.log" 2>&1; echo "tests $p exit $? at $(el) s"; tail -n 1 "$R/tests_$p.log") &
done
wait; pack
for tool in memcheck racecheck; do
  (cd "$T/rms" && PYTHONPATH=src timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 python3 benchmarks/sanitize_rms_norm.py > "$R/sanitizer_$tool.log" 2>&1; echo "$tool exit $? at $(el) s"; tail -n 2 "$R/sanitizer_$tool.log") &
done
wait; pack
run() {  # run DIR OP
  (cd "$T/$1" && timeout 100 python3 "$T/v_time.py" "$2" "$1" "$R/time_$1.json" none LAB_NOPIPE=1 > "$R/time_$1.log" 2>&1
   echo "time $1 exit $? at $(el) s")
}
run rms rms_norm; pack
run ln layer_norm; pack
echo "done at $(el) s"
