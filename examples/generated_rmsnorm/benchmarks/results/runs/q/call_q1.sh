#!/usr/bin/env bash
# Lab Q1: whole-vector loads (load_vector) in the row-norm kernels. A: the kernels of the records
# (template 1cccc9b); B: every global read of a vector with one load instruction a 16 bytes (the
# weight, bias and backward reads had been one load an element), and the two-block forward only for
# 16-byte vectors. Device time of each variant's ops at the big shapes and 8192x4095, every dtype;
# Nsight Compute of B's bfloat16 LayerNorm forward and RMSNorm backward at 32768x4096.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd); R=$X/res; mkdir -p $R; start=$(date +%s)
nvidia-smi > $R/nvidia_smi.txt 2>&1
for d in $X/[AB]_*; do
  (cd $d && MAX_JOBS=3 timeout 330 python3 setup.py build_ext --inplace > $R/build_$(basename $d).log 2>&1; echo "build $(basename $d) exit $? at $(( $(date +%s) - start )) s") &
done
wait
for v in A B; do
  for spec in "layer_norm example_layer_norm layer_norm" "rmsnorm generated_rmsnorm rms_norm" "fused_add_rms_norm example_fused_add_rms_norm fused_add_rms_norm"; do
    set -- $spec
    (cd $X/${v}_$1 && PYTHONPATH=src timeout 90 python3 $X/time_ops.py $2 $3 ${v}_$3 > $R/time_${v}_$3.log 2>&1; cp time_*.json $R/ 2>/dev/null; echo "timed ${v}_$3 exit $? at $(( $(date +%s) - start )) s")
  done
done
tar czf $OUT/q1a.tgz -C $X res
for spec in "B_layer_norm example_layer_norm layer_norm bfloat16 32768 4096 forward_kernel" "B_rmsnorm generated_rmsnorm rms_norm bfloat16 32768 4096 backward_kernel backward"; do
  set -- $spec
  (cd $X/$1 && PYTHONPATH=src timeout 60 ncu --clock-control none -k regex:$7 -s 2 -c 1 --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis python3 $X/ncu_one.py $2 $3 $4 $5 $6 $8 > $R/ncu_$1_$4_$5x$6_$7.txt 2>&1; echo "ncu $1 exit $? at $(( $(date +%s) - start )) s")
done
tar czf $OUT/q1b.tgz -C $X res
echo "done at $(( $(date +%s) - start )) s"
