#!/usr/bin/env bash
# Labs R1 to R3 (usage: call_r.sh 1|2|3; results in res_rN; the three calls ran this as
# call_r1.sh to call_r3.sh, one copy each): the lab builds of the RMSNorm example and the LayerNorm
# project, with knobs patched in beforehand (lab_patch.py for R1 and R2, lab_patch3.py for R3);
# time_small.py's settings (R3: time_small3.py, which is time_small.py with time_small3.patch
# applied); then, in R1 and R3, some of the suites' CUDA cases at the default knobs.
#  R1: C0 to C7, timed by back-to-back calls (time_small.py's R1 form; ../README.md says how).
#  R2: the same builds and settings, timed in CUDA graphs over buffers rotated past L2.
#  R3: D0 to D6, the rules drawn from R2.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
n=$1
X=$(cd "$(dirname "$0")" && pwd); R=$X/res_r$n; mkdir -p $R; start=$(date +%s)
timer=$X/time_small.py; [ "$n" = 3 ] && timer=$X/time_small3.py
cases="less_shared_memory or cuda_shapes or (match_reference and cuda)"
[ "$n" = 3 ] && cases="$cases or graph or stream or half_x"
nvidia-smi > $R/nvidia_smi.txt 2>&1
python3 -c "import torch; p=torch.cuda.get_device_properties(); print('optin', p.shared_memory_per_block_optin)"
for d in rmsnorm layer_norm; do
  (cd $X/$d && MAX_JOBS=8 timeout 300 python3 setup.py build_ext --inplace > $R/build_$d.log 2>&1; echo "build $d exit $? at $(( $(date +%s) - start )) s") &
done
wait
(cd $X/rmsnorm && PYTHONPATH=src timeout 150 python3 $timer generated_rmsnorm rms_norm $R/time_rms.json > $R/time_rms.log 2>&1; echo "time rms exit $? at $(( $(date +%s) - start )) s"; tail -1 $R/time_rms.log)
(cd $X/layer_norm && PYTHONPATH=src timeout 150 python3 $timer example_layer_norm layer_norm $R/time_ln.json > $R/time_ln.log 2>&1; echo "time ln exit $? at $(( $(date +%s) - start )) s"; tail -1 $R/time_ln.log)
tar czf $OUT/r${n}a.tgz -C $X res_r$n
[ "$n" = 2 ] && exit 0
for d in rmsnorm layer_norm; do
  (cd $X/$d && timeout 120 python3 -m pytest -q -p no:cacheprovider tests -k "$cases" > $R/tests_$d.log 2>&1; echo "tests $d exit $? at $(( $(date +%s) - start )) s"; tail -1 $R/tests_$d.log)
done
tar czf $OUT/r${n}b.tgz -C $X res_r$n
