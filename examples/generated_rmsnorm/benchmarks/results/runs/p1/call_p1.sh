#!/usr/bin/env bash
# Profiling call P1: the LayerNorm and residual-add RMSNorm projects built with register caps
# (nvcc -maxrregcount 64/48/40 through NVCC_APPEND_FLAGS) against the default build; device time
# of each variant's ops at the big shapes; ncu of the default build's forward kernels.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")" && pwd); R=$X/res; mkdir -p $R; start=$(date +%s)
nvidia-smi > $R/nvidia_smi.txt 2>&1
for v in 0 64 48 40; do
  for p in layer_norm fused_add_rms_norm; do
    rm -rf $X/${p}_$v; cp -r $X/$p $X/${p}_$v
    flags=""; [ $v != 0 ] && flags="-maxrregcount=$v"
    (cd $X/${p}_$v && NVCC_APPEND_FLAGS="$flags" MAX_JOBS=2 timeout 300 python3 setup.py build_ext --inplace > $R/build_${p}_$v.log 2>&1; echo "build $p $v exit $? at $(( $(date +%s) - start )) s") &
  done
done
wait
for v in 0 64 48 40; do
  (cd $X/layer_norm_$v && PYTHONPATH=src timeout 60 python3 $X/time_ops.py example_layer_norm layer_norm ln_$v > $R/time_ln_$v.log 2>&1; cp time_*.json $R/ 2>/dev/null; tail -1 $R/time_ln_$v.log)
  (cd $X/fused_add_rms_norm_$v && PYTHONPATH=src timeout 60 python3 $X/time_ops.py example_fused_add_rms_norm fused_add_rms_norm res_$v > $R/time_res_$v.log 2>&1; cp time_*.json $R/ 2>/dev/null; tail -1 $R/time_res_$v.log)
  echo "timed $v at $(( $(date +%s) - start )) s"
done
tar czf $OUT/p1a.tgz -C $X res
cat > $X/ncu_one.py <<'PY'
import sys, importlib, torch
pkg, opname, dt, M, N = sys.argv[1], sys.argv[2], getattr(torch, sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
importlib.import_module(pkg); fwd = getattr(getattr(torch.ops, pkg), opname)
x = torch.randn(M, N, device="cuda", dtype=dt); w = torch.randn(N, device="cuda", dtype=dt)
args = (x,) + ((torch.randn_like(x),) if "fused_add" in opname else ()) + (w,) + ((torch.randn_like(w),) if "layer" in opname else ()) + (1e-5,)
for _ in range(3): fwd(*args)
torch.cuda.synchronize()
PY
for spec in "layer_norm_0 example_layer_norm layer_norm bfloat16 32768 4096" "layer_norm_0 example_layer_norm layer_norm float32 4096 16384" "fused_add_rms_norm_0 example_fused_add_rms_norm fused_add_rms_norm bfloat16 4096 16384" "fused_add_rms_norm_0 example_fused_add_rms_norm fused_add_rms_norm float16 4096 16384"; do
  set -- $spec
  (cd $X/$1 && PYTHONPATH=src timeout 90 ncu --clock-control none -k regex:forward_kernel -s 2 -c 1 --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis python3 $X/ncu_one.py $2 $3 $4 $5 $6 > $R/ncu_$3_$4_$5x$6.txt 2>&1; echo "ncu $3 $4 exit $?")
done
tar czf $OUT/p1b.tgz -C $X res
echo "done at $(( $(date +%s) - start )) s"
