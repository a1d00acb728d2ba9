#!/usr/bin/env bash
# Lab Y1 (issue 11): the forward of rows wider than a block's registers hold, staged in shared memory
# by bulk copies (forward_staged_kernel), in the RMSNorm example, the LayerNorm and the residual-add
# RMSNorm projects rendered at the commit in commit.txt, with knobs added by patch_y.py after rendering.
# Builds the three, runs their CUDA tests, compute-sanitizer on the RMSNorm workload, then times them
# at each knob setting (y_time.py).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/commit.txt" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
for p in rms ln addrms; do
  (cd "$T/$p" && MAX_JOBS=6 FORCE_CUDA=1 timeout 240 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s") &
done
wait
pack() { tar czf "$OUT/y1.tgz" -C "$T" res; }
for p in rms ln addrms; do
  (cd "$T/$p" && PYTHONPATH=src timeout 120 python3 -m pytest -q -x -p no:cacheprovider tests -k cuda > "$R/tests_$p.log" 2>&1; echo "tests $p exit $? at $(el) s"; tail -n 1 "$R/tests_$p.log") &
done
wait; pack
for tool in memcheck racecheck; do
  (cd "$T/rms" && PYTHONPATH=src timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 python3 benchmarks/sanitize_rms_norm.py > "$R/sanitizer_$tool.log" 2>&1; echo "$tool exit $? at $(el) s"; tail -n 2 "$R/sanitizer_$tool.log") &
done
wait; pack
S="none LAB_OLD=1 LAB_SLICE=16384 LAB_SLICE=65536 LAB_THREADS=128 LAB_THREADS=512"
run() {  # run DIR OP
  (cd "$T/$1" && timeout 110 python3 "$T/y_time.py" "$2" "$1" "$R/time_$1.json" $S > "$R/time_$1.log" 2>&1
   echo "time $1 exit $? at $(el) s")
}
run rms rms_norm; pack
run ln layer_norm; pack
run addrms fused_add_rms_norm; pack
echo "done at $(el) s"
