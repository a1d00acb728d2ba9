#!/usr/bin/env bash
# Lab P2: which of the row-norm kernels' bfloat16 word-at-a-time conversions (load_opmath_by_words)
# help. Variants of csrc/row_norm/cuda.cuh: A every site (the template at its commit), B none,
# C the forward's conversions of registers only, D the residual forward's reads of x and residual
# only, E both C and D. Device time of each variant's forward and backward ops in bfloat16.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd); R=$X/res; mkdir -p $R; start=$(date +%s)
for d in $X/layer_norm_? $X/fused_add_rms_norm_? $X/rms_norm_?; do
  (cd $d && MAX_JOBS=2 timeout 300 python3 setup.py build_ext --inplace > $R/build_$(basename $d).log 2>&1; echo "build $(basename $d) exit $? at $(( $(date +%s) - start )) s") &
done
wait
for d in $X/layer_norm_? $X/fused_add_rms_norm_? $X/rms_norm_?; do
  n=$(basename $d); case $n in layer_norm_*) pk=example_layer_norm; op=layer_norm;; fused_add*) pk=example_fused_add_rms_norm; op=fused_add_rms_norm;; rms_norm_*) pk=generated_rmsnorm; op=rms_norm;; esac
  (cd $d && PYTHONPATH=src timeout 60 python3 $X/time_ops.py $pk $op $n bfloat16 > $R/time_$n.log 2>&1; cp time_*.json $R/ 2>/dev/null)
done
echo "timed at $(( $(date +%s) - start )) s"
tar czf $OUT/p2.tgz -C $X res
