#!/usr/bin/env bash
# ptxas.sh PROJECT_DIR OP OUT: nvcc 13.0's ptxas -v log (registers, spills, shared memory of each
# kernel) of OP's CUDA translation unit for sm_90a, on this repository's development machine, which
# has no GPU and only the CUDA runtime headers: inc/ holds stand-ins for the headers that torch's
# includes name and the runtime lacks (cusparse.h, cublas_v2.h, cublasLt.h, cusolverDn.h: a typedef
# each; c10/cuda/impl/cuda_cmake_macros.h). VENV: the venv whose torch supplies the headers (default
# /tmp/venv). As labs J1 and J2 ran it (then /tmp/ptx/ptxas.sh and /tmp/ptx/inc).
P=$1; OP=$2; OUT=$3
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${VENV:-/tmp/venv}/bin/python
T=$("$PY" -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "include"))')
PYI=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
cd "$P" && /usr/local/bin/nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a -Xptxas -v -O3 \
  -I csrc -I "$HERE/inc" -I "$T" -I "$T/torch/csrc/api/include" -I "$PYI" -DTORCH_EXTENSION_NAME=x --expt-relaxed-constexpr \
  -c "csrc/${OP}_cuda.cu" -o "/tmp/$(basename "$P").o" > "$OUT" 2>&1; echo "exit $?" >> "$OUT"
