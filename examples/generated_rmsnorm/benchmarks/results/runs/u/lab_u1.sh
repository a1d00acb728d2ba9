#!/usr/bin/env bash
# Lab U1 (issue 11): L2 prefetch of rows ahead (patch_u.py: knobs LAB_FWD_PF, LAB_BWD_PF) in the RMSNorm
# example and the LayerNorm project rendered at 6bc698f (the code of main's 0d00eb4). Builds both, runs
# their CUDA tests with both knobs on, then times each with the knobs off and on (u_time.py).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
nvidia-smi > "$R/nvidia_smi.txt" 2>&1
for p in rms ln; do
  (cd "$T/$p" && MAX_JOBS=8 FORCE_CUDA=1 timeout 200 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s") &
done
wait
pack() { tar czf "$OUT/u1.tgz" -C "$T" res; }
for p in rms ln; do
  (cd "$T/$p" && PYTHONPATH=src LAB_FWD_PF=1 LAB_BWD_PF=1 timeout 90 python3 -m pytest -q -x -p no:cacheprovider tests -k cuda > "$R/tests_$p.log" 2>&1; echo "tests $p exit $? at $(el) s"; tail -n 1 "$R/tests_$p.log")
done
pack
run() {  # run DIR OP
  (cd "$T/$1" && timeout 170 python3 "$T/u_time.py" "$2" "$1" "$R/time_$1.json" none LAB_FWD_PF=1,LAB_BWD_PF=1 > "$R/time_$1.log" 2>&1
   echo "time $1 exit $? at $(el) s")
}
run rms rms_norm; pack
run ln layer_norm; pack
echo "done at $(el) s"
