#!/usr/bin/env bash
# Lab B1 (issue 11): the staged backward that reads each row's columns from its stage into registers and
# at once stages the row kStages on there (kStages rows in flight through the row's reductions, not
# kStages - 1), against main's (cb2b082), in the RMSNorm example rendered from each (old: main; new: the
# template of commit.txt's commit with that change). Builds both, runs the new build's CUDA tests,
# times both (b_time.py: each case checked against float64 first), then Nsight Compute of the bfloat16
# RMSNorm backward kernel at 1024x65536 and 4096x16384, old and new.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res1; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
el() { echo $(( $(date +%s) - start )); }
cp "$T/commit.txt" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
for p in rms_old rms_new; do
  (cd "$T/$p" && MAX_JOBS=8 FORCE_CUDA=1 timeout 280 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(el) s") &
done
wait
pack() { tar czf "$OUT/b1.tgz" -C "$T" res1; }
for p in rms_new; do
  (cd "$T/$p" && PYTHONPATH=src timeout 60 python3 -m pytest -q -x -p no:cacheprovider tests -k cuda > "$R/tests_$p.log" 2>&1; echo "tests $p exit $? at $(el) s"; tail -n 1 "$R/tests_$p.log")
done
pack
run() {  # run DIR OP
  (cd "$T/$1" && timeout ${TL:-120} python3 "$T/b_time.py" "$2" "$1" "$R/time_$1.json" > "$R/time_$1.log" 2>&1
   echo "time $1 exit $? at $(el) s")
}
run rms_old rms_norm; run rms_new rms_norm; pack
prof() {  # prof DIR M N
  (cd "$T/$1" && timeout 60 ncu --profile-from-start off --clock-control none -k regex:backward_kernel --section LaunchStats \
     --section Occupancy --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
     --section SchedulerStats python3 "$T/t1_ncu.py" rms_norm ours bfloat16 "$2" "$3" backward > "$R/ncu_$1_$2x$3.txt" 2>&1
   echo "ncu $1 $2x$3 exit $? at $(el) s")
}
prof rms_old 1024 65536; prof rms_new 1024 65536; prof rms_old 4096 16384; prof rms_new 4096 16384; pack
echo "done at $(el) s"
