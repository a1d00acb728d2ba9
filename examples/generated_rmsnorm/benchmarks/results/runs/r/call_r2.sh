#!/usr/bin/env bash
# Lab R2: R1's builds and settings, timed in CUDA graphs over rotated buffers by time_small.py (R1
# timed back-to-back calls, which at small shapes measured the host).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd); R=$X/res_r2; mkdir -p $R; start=$(date +%s)
nvidia-smi > $R/nvidia_smi.txt 2>&1
python3 -c "import torch; p=torch.cuda.get_device_properties(); print('optin', p.shared_memory_per_block_optin)"
for d in rmsnorm layer_norm; do
  (cd $X/$d && MAX_JOBS=8 timeout 300 python3 setup.py build_ext --inplace > $R/build_$d.log 2>&1; echo "build $d exit $? at $(( $(date +%s) - start )) s") &
done
wait
(cd $X/rmsnorm && PYTHONPATH=src timeout 150 python3 $X/time_small.py generated_rmsnorm rms_norm $R/time_rms.json > $R/time_rms.log 2>&1; echo "time rms exit $? at $(( $(date +%s) - start )) s"; tail -1 $R/time_rms.log)
(cd $X/layer_norm && PYTHONPATH=src timeout 150 python3 $X/time_small.py example_layer_norm layer_norm $R/time_ln.json > $R/time_ln.log 2>&1; echo "time ln exit $? at $(( $(date +%s) - start )) s"; tail -1 $R/time_ln.log)
tar czf $OUT/r2a.tgz -C $X res_r2
