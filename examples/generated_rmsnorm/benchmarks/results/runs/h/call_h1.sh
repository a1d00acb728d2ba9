#!/usr/bin/env bash
# Lab H1: the host's time a call (host_time.py) on the RMSNorm example that prepare.sh rendered
# into gpu_lab/x/rmsnorm (at the commit in ../commit.txt).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
H=$(cd "$(dirname "$0")" && pwd); P=$H/../x/rmsnorm; mkdir -p $H/res_h1
(cd $P && MAX_JOBS=16 timeout 200 python3 setup.py build_ext --inplace > $H/res_h1/build.log 2>&1; echo "build exit $?")
(cd $P && PYTHONPATH=src timeout 200 python3 $H/host_time.py > $H/res_h1/host_time.log 2>&1; echo "host_time exit $?"; head -8 $H/res_h1/host_time.log)
tar czf $OUT/h1.tgz -C $H res_h1
