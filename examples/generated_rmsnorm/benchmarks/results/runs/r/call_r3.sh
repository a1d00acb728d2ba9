#!/usr/bin/env bash
# Lab R3: the rules drawn from R2, knobs patched in by lab_patch3.py; time_small3.py is time_small.py
# with time_small3.patch applied (its settings D0 to D6; D0: the template's sources of the lab, see
# ../README.md); then the suites' shared-memory test and CUDA shape tests at the default knobs.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd); R=$X/res_r3; mkdir -p $R; start=$(date +%s)
nvidia-smi > $R/nvidia_smi.txt 2>&1
python3 -c "import torch; p=torch.cuda.get_device_properties(); print('optin', p.shared_memory_per_block_optin)"
for d in rmsnorm layer_norm; do
  (cd $X/$d && MAX_JOBS=8 timeout 300 python3 setup.py build_ext --inplace > $R/build_$d.log 2>&1; echo "build $d exit $? at $(( $(date +%s) - start )) s") &
done
wait
(cd $X/rmsnorm && PYTHONPATH=src timeout 150 python3 $X/time_small3.py generated_rmsnorm rms_norm $R/time_rms.json > $R/time_rms.log 2>&1; echo "time rms exit $? at $(( $(date +%s) - start )) s"; tail -1 $R/time_rms.log)
(cd $X/layer_norm && PYTHONPATH=src timeout 150 python3 $X/time_small3.py example_layer_norm layer_norm $R/time_ln.json > $R/time_ln.log 2>&1; echo "time ln exit $? at $(( $(date +%s) - start )) s"; tail -1 $R/time_ln.log)
tar czf $OUT/r3a.tgz -C $X res_r3
for d in rmsnorm layer_norm; do
  (cd $X/$d && timeout 120 python3 -m pytest -q -p no:cacheprovider tests -k "less_shared_memory or cuda_shapes or (match_reference and cuda) or graph or stream or half_x" > $R/tests_$d.log 2>&1; echo "tests $d exit $? at $(( $(date +%s) - start )) s"; tail -1 $R/tests_$d.log)
done
tar czf $OUT/r3b.tgz -C $X res_r3
