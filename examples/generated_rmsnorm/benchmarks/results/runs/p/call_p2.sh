#!/usr/bin/env bash
# GPU call P2 (issue 11), two H200s of one host, right after call P on the same machine: lab P
# (mean_error.py) on the two LayerNorm projects, then the four norms' benchmarks, two at a time, one a
# GPU (CUDA_VISIBLE_DEVICES=0 or 1: each bench sees one GPU; the two processes share the host's 32
# cores): LayerNorm and the residual-add LayerNorm, then RMSNorm and the residual-add RMSNorm while
# they end by the call's 585 s. The projects as call P built them in .gpu/ (a project without its
# build is built first). Liger-Kernel from .whl/ (carried). Results tarred into $OUT/res_p2.tgz.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
G=$(cd "$(dirname "$0")" && pwd); root=$(git -C "$G" rev-parse --show-toplevel 2>/dev/null || pwd)
X=$root/.gpu; R=/tmp/res_p2; rm -rf "$R"; mkdir -p "$R"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
pack() { local t; t=$(mktemp -p "$OUT" .res_p2.XXXXXX) && tar czf "$t" -C /tmp res_p2 2>/dev/null; mv -f "$t" "$OUT/res_p2.tgz"; }
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi.txt" 2>&1
python3 -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.device_count())' > "$R/torch.txt" 2>&1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site "$root"/.whl/*.whl \
  > "$R/pip.log" 2>&1; echo "liger install exit $?"
export PYTHONPATH=/tmp/site
declare -A OP=([rmsnorm]=rms_norm [layer_norm]=layer_norm [fused_add_rms_norm]=fused_add_rms_norm [fused_add_layer_norm]=fused_add_layer_norm)
built() { ls "$X/$1"/src/*/_C*.so > /dev/null 2>&1; }
build() {
  built "$1" && { echo "build $1: kept from call P"; return 0; }
  (cd "$X/$1" && MAX_JOBS=8 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$1.log" 2>&1)
  echo "build $1 exit $? at $(elapsed) s"
}
bench() {  # bench PROJECT GPU: as gpu_suite.py runs it, with the plot
  local p=$1 op=${OP[$1]}; mkdir -p "$R/$p"
  (cd "$X/$p" && CUDA_VISIBLE_DEVICES=$2 timeout 240 python3 "benchmarks/bench_$op.py" --json "$R/$p/bench_$op.json" > "$R/$p/benchmark.log" 2>&1
   echo "bench $p exit $? at $(elapsed) s"
   python3 -c "import sys; sys.path.insert(0, 'benchmarks'); import gpu_suite; from pathlib import Path
gpu_suite.plot('$op', Path('$R/$p/bench_$op.json'), Path('$R/$p/bench_$op.png'))" > /dev/null 2>&1)
}
for p in layer_norm fused_add_layer_norm rmsnorm fused_add_rms_norm; do build $p & done
wait
for p in layer_norm fused_add_layer_norm; do
  (cd "$X/$p" && PYTHONPATH=src:$PYTHONPATH timeout 60 python3 "$G/mean_error.py" "$p") >> "$R/mean_error.txt" 2>&1
done
cat "$R/mean_error.txt"; echo "lab P done at $(elapsed) s"; pack
(bench layer_norm 0) & (bench fused_add_layer_norm 1) & wait; pack
if [ $(( $(elapsed) + 240 )) -lt 585 ]; then (bench rmsnorm 0) & (bench fused_add_rms_norm 1) & wait; fi
echo "done at $(elapsed) s"; pack
