#!/usr/bin/env bash
# Lab Z2 (issue 11): the backward of rows that a block holds alone, its staged rows copied by bulk copies,
# with two stages where they let a multiprocessor hold more blocks than three, against the backward of
# 94ebe3d (LAB_BULK=0,LAB_STAGE_RULE=0), in the RMSNorm example, the LayerNorm and the residual-add RMSNorm
# projects rendered at the commit in commit.txt, with knobs added by patch_z2.py after
# rendering. Builds the three, runs the RMSNorm example's CUDA tests and compute-sanitizer on its workload,
# then times them at each knob setting (z2_time.py), each setting's outputs checked against float64 first.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res2; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/commit.txt" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
for p in rms ln addrms; do
  (cd "$T/$p" && MAX_JOBS=5 FORCE_CUDA=1 timeout 260 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s") &
done
wait
pack() { tar czf "$OUT/z2.tgz" -C "$T" res2; }
(cd "$T/rms" && PYTHONPATH=src timeout 120 python3 -m pytest -q -x -p no:cacheprovider tests -k cuda > "$R/tests_rms.log" 2>&1; echo "tests rms exit $? at $(el) s"; tail -n 1 "$R/tests_rms.log")
for tool in memcheck racecheck; do
  (cd "$T/rms" && PYTHONPATH=src timeout 100 compute-sanitizer --tool $tool --error-exitcode 1 python3 benchmarks/sanitize_rms_norm.py > "$R/sanitizer_$tool.log" 2>&1; echo "$tool exit $? at $(el) s"; tail -n 2 "$R/sanitizer_$tool.log") &
done
wait; pack
S="none LAB_BULK=1 LAB_BULK=0 LAB_STAGE_RULE=0 LAB_BULK=0,LAB_STAGE_RULE=0 LAB_BWD_THREADS=256"
run() {  # run DIR OP SETTINGS...
  d=$1; op=$2; shift 2
  (cd "$T/$d" && timeout ${TL:-100} python3 "$T/z2_time.py" "$op" "$d" "$R/time_$d.json" "$@" > "$R/time_$d.log" 2>&1
   echo "time $d exit $? at $(el) s")
}
run rms rms_norm $S; pack
run ln layer_norm $S; pack
run addrms fused_add_rms_norm $S; pack
echo "done at $(el) s"
