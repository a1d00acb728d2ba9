#!/usr/bin/env bash
# ptxas_arch.sh PROJECT_DIR OP OUT: as ptxas.sh, for sm_ARCH (ARCH=75 unless given: the oldest GPUs a
# build may name), with the command line as OUT's first line (from session 59 on; the template's
# kernels guard what needs sm_80 or sm_90, so a build for older GPUs must compile).
P=$1; OP=$2; OUT=$3; A=${ARCH:-75}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${VENV:-/tmp/venv}/bin/python
T=$("$PY" -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "include"))')
PYI=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
cmd=(/usr/local/bin/nvcc -std=c++17 -gencode "arch=compute_$A,code=sm_$A" -Xptxas -v -O3 -I csrc -I "$HERE/inc"
     -I "$T" -I "$T/torch/csrc/api/include" -I "$PYI" -DTORCH_EXTENSION_NAME=x --expt-relaxed-constexpr
     -c "csrc/${OP}_cuda.cu" -o "/tmp/$(basename "$P")_$A.o")
cd "$P" && { echo "# in $P: ${cmd[*]}"; "${cmd[@]}" 2>&1; echo "exit $?"; } > "$OUT"
