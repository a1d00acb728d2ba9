#!/usr/bin/env bash
# GPU call P (issue 11), two H200s of one host: the norms' suites again after LayerNorm's CUDA forward
# came to combine each row's means about the row's first element (csrc/row_norm/cuda.cuh,
# row_origin), with the rows-far-from-zero test on CUDA again; as call N (n/call_n.sh): each suite
# with both GPUs visible, so that one run gives each norm's tests, its compute-sanitizer verdicts and
# its tests on two GPUs. The projects of `scaffold gpu-bundle .gpu` (the template at
# .gpu/commit.txt): the RMSNorm example's suite builds it (gpu_suite.py, timed); the other projects
# are built at once beside it. Two suites a GPU at a time: the RMSNorm example and LayerNorm on GPU 0,
# the residual-add operators on GPU 1 (CUDA_VISIBLE_DEVICES=1,0: their cuda:0 is GPU 1, and they
# still see two); then the two-family project's whole suite on GPU 0. No benchmark (call P2), no
# just-in-time build. Results tarred into $OUT/res_$CALL.tgz. Environment: CALL (p unless set: call
# P3 ran this as p3), TWO_FAMILIES=0 (without the two-family project).
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
G=$(cd "$(dirname "$0")" && pwd); root=$(git -C "$G" rev-parse --show-toplevel 2>/dev/null || pwd)
X=$root/.gpu; CALL=${CALL:-p}; R=/tmp/res_$CALL; rm -rf "$R"; mkdir -p "$R"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
pack() { local t; t=$(mktemp -p "$OUT" .res_$CALL.XXXXXX) && tar czf "$t" -C /tmp res_$CALL 2>/dev/null; mv -f "$t" "$OUT/res_$CALL.tgz"; }
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi.txt" 2>&1
python3 -c 'import torch; print(torch.__version__, torch.version.cuda, torch.cuda.device_count())' > "$R/torch.txt" 2>&1
cat "$R/torch.txt"
suite() {  # suite PROJECT DEVICES LIMIT [gpu_suite.py options]: its record in $R/PROJECT
  local p=$1 devices=$2 limit=$3; shift 3
  (cd "$X/$p" && CUDA_VISIBLE_DEVICES=$devices MAX_JOBS=8 timeout "$limit" python3 benchmarks/gpu_suite.py \
     --skip-benchmark --skip-jit --out "$R/$p" "$@" > "$R/${p}_suite.log" 2>&1
   echo "suite $p exit $? at $(elapsed) s: $(tail -n 1 "$R/$p/tests.log" 2>/dev/null)")
  for answers in "$X/$p"/.copier-answers*.yml; do cp "$answers" "$R/$p/${answers##*/.}"; done
  pack
}
build() {
  (cd "$X/$1" && MAX_JOBS=8 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$1.log" 2>&1)
  echo "build $1 exit $? at $(elapsed) s"
}
(suite rmsnorm 0,1 560) &
first=$!
(build layer_norm && suite layer_norm 0,1 480 --skip-build) &
second=$!
(build fused_add_rms_norm && suite fused_add_rms_norm 1,0 560 --skip-build) &
(build fused_add_layer_norm && suite fused_add_layer_norm 1,0 560 --skip-build) &
[ "${TWO_FAMILIES:-1}" = 0 ] || (build two_families) &
wait $first $second
left=$(( 585 - $(elapsed) )); [ "${TWO_FAMILIES:-1}" = 0 ] || suite two_families 0,1 $(( left > 60 ? left : 60 )) --skip-build --skip-sanitizer
wait
echo "done at $(elapsed) s"; pack
