#!/usr/bin/env bash
# ptx.sh PROJECT_DIR OP OUT: the PTX (sm_90a) of OP's CUDA translation unit, as ptxas.sh builds it.
P=$1; OP=$2; OUT=$3
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${VENV:-/tmp/venv}/bin/python
T=$("$PY" -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "include"))')
PYI=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
cd "$P" && /usr/local/bin/nvcc -std=c++17 -arch=compute_90a -ptx -O3 -I csrc -I "$HERE/inc" -I "$T" \
  -I "$T/torch/csrc/api/include" -I "$PYI" --expt-relaxed-constexpr "csrc/${OP}_cuda.cu" -o "$OUT"
