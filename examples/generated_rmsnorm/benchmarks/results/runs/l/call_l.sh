#!/usr/bin/env bash
# GPU call L (issue 11), one H200: the four norms' benchmarks on branch issue11-staged-sums (the
# projects of `scaffold gpu-bundle .gpu` at .gpu/commit.txt), as gpu_suite.py runs them, with the plot;
# one at a time on the one GPU (16 cores). Projects are built first, all at once (a project already
# built in .gpu/ would be kept, but none was: .gpu/ is carried with each call, which replaces the
# builds of an earlier call, so L2 built RMSNorm again). A benchmark starts only while the call's
# 585 s leave it 200 s; the rest run in a later call of the same script, given those projects. As
# run: `call_l.sh l1 layer_norm fused_add_layer_norm fused_add_rms_norm rmsnorm` (RMSNorm was left
# for later), then `call_l.sh l2 rmsnorm`; console output in l1/ and l2/console.txt.
# Liger-Kernel from .whl/ (carried). Results tarred into $OUT/res_NAME.tgz.
#   bash call_l.sh NAME PROJECT...
name=$1; shift
. "$(dirname "$0")/../call_lib.sh" "$name"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site "$root"/.whl/*.whl \
  > "$R/pip.log" 2>&1; echo "liger install exit $?"
export PYTHONPATH=/tmp/site
declare -A OP=([rmsnorm]=rms_norm [layer_norm]=layer_norm [fused_add_rms_norm]=fused_add_rms_norm [fused_add_layer_norm]=fused_add_layer_norm)
built() { ls "$X/$1"/src/*/_C*.so > /dev/null 2>&1; }
build() {
  built "$1" && { echo "build $1: kept from an earlier call"; return 0; }
  (cd "$X/$1" && MAX_JOBS=4 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$1.log" 2>&1)
  echo "build $1 exit $? at $(elapsed) s"
}
bench() {  # bench PROJECT: as gpu_suite.py runs it, with the plot
  local p=$1 op=${OP[$1]}; mkdir -p "$R/$p"
  (cd "$X/$p" && timeout 240 python3 "benchmarks/bench_$op.py" --json "$R/$p/bench_$op.json" > "$R/$p/benchmark.log" 2>&1
   echo "bench $p exit $? at $(elapsed) s"
   python3 -c "import sys; sys.path.insert(0, 'benchmarks'); import gpu_suite; from pathlib import Path
gpu_suite.plot('$op', Path('$R/$p/bench_$op.json'), Path('$R/$p/bench_$op.png'))" > /dev/null 2>&1)
}
for p in "$@"; do build "$p" & done
wait
pack
for p in "$@"; do
  if [ $(( $(elapsed) + 200 )) -gt 585 ]; then echo "bench $p: left for a later call (at $(elapsed) s)"; continue; fi
  bench "$p"; pack
done
echo "done at $(elapsed) s"; pack
