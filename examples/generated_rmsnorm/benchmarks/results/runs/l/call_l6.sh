#!/usr/bin/env bash
# GPU call L6 (issue 11), TO RUN on two GPUs of one host (nvidia-h200-x2), not yet run: what branch
# issue11-staged-sums still needs before it lands (call L ran its benchmarks, call L5 LayerNorm's
# suite on one GPU). The projects of `scaffold gpu-bundle .gpu` at this branch, carried with the
# first call only: a carried .gpu/ replaces the builds of an earlier call on the same machine.
#   bash call_l6.sh a   the suites (tests, compute-sanitizer) of the RMSNorm example, the residual-add
#                       RMSNorm and the residual-add LayerNorm, each with both GPUs visible: the
#                       example alone on GPU 0 (its memcheck run aborted at exit beside another suite
#                       in calls G3-2 and N), the residual-add operators together on GPU 1
#                       (CUDA_VISIBLE_DEVICES=1,0), as call N ran them. Builds the other two projects
#                       meanwhile.
#   bash call_l6.sh b   (the same machine, still warm, without carrying .gpu/) LayerNorm's tests with
#                       both GPUs visible (no sanitizer: call L5 ran it), for its two_gpus/ record,
#                       then the two-family project's whole suite (no sanitizer), each on both GPUs.
# Results tarred into $OUT/res_l6a.tgz or $OUT/res_l6b.tgz. runs/l/land_l.sh then puts them, with
# calls L's and L5's records, where the results tables read them.
phase=$1
. "$(dirname "$0")/../call_lib.sh" "l6$phase"
suite() {  # suite PROJECT DEVICES LIMIT [gpu_suite.py options]: its record in $R/PROJECT
  local p=$1 devices=$2 limit=$3; shift 3
  (cd "$X/$p" && CUDA_VISIBLE_DEVICES=$devices MAX_JOBS=8 timeout "$limit" python3 benchmarks/gpu_suite.py \
     --skip-benchmark --skip-jit --out "$R/$p" "$@" > "$R/${p}_suite.log" 2>&1
   echo "suite $p exit $? at $(elapsed) s: $(tail -n 1 "$R/$p/tests.log" 2>/dev/null)")
  for answers in "$X/$p"/.copier-answers*.yml; do cp "$answers" "$R/$p/${answers##*/.}"; done
  pack
}
built() { ls "$X/$1"/src/*/_C*.so > /dev/null 2>&1; }
build() {
  built "$1" && { echo "build $1: kept from call L6a"; return 0; }
  (cd "$X/$1" && MAX_JOBS=8 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$1.log" 2>&1)
  echo "build $1 exit $? at $(elapsed) s"
}
case $phase in
  a)
    (suite rmsnorm 0,1 570) &
    (build fused_add_rms_norm && suite fused_add_rms_norm 1,0 570 --skip-build) &
    (build fused_add_layer_norm && suite fused_add_layer_norm 1,0 570 --skip-build) &
    (build layer_norm) & (build two_families) &
    wait ;;
  b)
    build layer_norm; build two_families
    suite layer_norm 0,1 300 --skip-build --skip-sanitizer
    left=$(( 580 - $(elapsed) )); suite two_families 0,1 $(( left > 60 ? left : 60 )) --skip-build --skip-sanitizer ;;
esac
echo "done at $(elapsed) s"; pack
