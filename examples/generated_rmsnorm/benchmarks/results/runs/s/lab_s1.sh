#!/usr/bin/env bash
# Lab S1 (issue 11): Nsight Compute of the row-norm kernels where forward+backward stays furthest
# from the copy rate in call X14 (template at the commit in commit.txt, the records' kernels): the
# backward (and two forwards) at 4096x16384 (float32: clusters of two blocks; bfloat16: 512 threads a
# row), 8192x8192 float32, 1024x65536 bfloat16, LayerNorm bfloat16 32768x4096, and the bfloat16 RMSNorm
# backward at 8192x4095 (rows of odd N) against 8192x4096. Results in $OUT/s1.tgz.
# ncu_one.py is runs/q/ncu_one.py (one operator call: PACKAGE OP DTYPE M N [backward]).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd); R=$X/s1; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi_s1.txt" 2>&1
for p in rmsnorm layer_norm; do
  (cd "$X/$p" && MAX_JOBS=8 timeout 200 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(( $(date +%s) - start )) s") &
done
wait
pack() { tar czf "$OUT/s1.tgz" -C "$X" s1; }
prof() {  # prof PROJECT PACKAGE OP DTYPE M N KERNEL [backward]
  local name="ncu_$3_$4_$5x$6_$7"
  (cd "$X/$1" && PYTHONPATH=src timeout 60 ncu --clock-control none -k regex:"$7" -s 2 -c 1 --section LaunchStats \
     --section Occupancy --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
     --section SchedulerStats python3 "$X/ncu_one.py" "$2" "$3" "$4" "$5" "$6" ${8:-} > "$R/$name.txt" 2>&1
   echo "$name exit $? at $(( $(date +%s) - start )) s")
}
R1="rmsnorm generated_rmsnorm rms_norm"
prof $R1 float32 4096 16384 backward_kernel backward
prof $R1 bfloat16 4096 16384 backward_kernel backward
prof $R1 float32 8192 8192 backward_kernel backward
pack
prof $R1 bfloat16 1024 65536 backward_kernel backward
prof $R1 bfloat16 1024 65536 forward_kernel
prof $R1 bfloat16 8192 4095 backward_kernel backward
prof $R1 bfloat16 8192 4096 backward_kernel backward
pack
prof layer_norm example_layer_norm layer_norm bfloat16 32768 4096 backward_kernel backward
prof $R1 bfloat16 32768 4096 backward_kernel backward
prof $R1 float32 1024 65536 forward_kernel
pack
echo "done at $(( $(date +%s) - start )) s"
