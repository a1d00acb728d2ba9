#!/usr/bin/env bash
# GPU call L6 (issue 11), TO RUN on two GPUs of one host (nvidia-h200-x2), not yet run: what branch
# issue11-staged-sums still needs before it lands (call L ran its benchmarks, call L5 LayerNorm's
# suite on one GPU). The projects of `scaffold gpu-bundle .gpu`, made from a checkout of tag
# issue11-staged-sums-a975239 (the branch's template/; call L's commit, so that every record names
# it), carried with each phase: a carried .gpu/ replaces the builds of an earlier call, so each
# phase builds what it runs.
#   bash call_l6.sh a   the suites (tests, compute-sanitizer) of the RMSNorm example, the residual-add
#                       RMSNorm and the residual-add LayerNorm, each with both GPUs visible: the
#                       example's on GPU 0 as its first device (its memcheck run aborted at exit beside
#                       another suite on its GPU in calls G3-2 and N), the residual-add operators' on
#                       GPU 1 as theirs (CUDA_VISIBLE_DEVICES=1,0; their second-device and
#                       DistributedDataParallel cases use GPU 0 too), as call N ran them.
#   bash call_l6.sh b   LayerNorm's tests with both GPUs visible (no sanitizer: call L5 ran it), for
#                       its two_gpus/ record, then the two-family project's whole suite (no sanitizer),
#                       each on both GPUs; the two-family suite only while 200 s are left.
# Each suite's limit is what is left of the call's 580 s; builds are call_lib.sh's `build`.
# Results tarred into $OUT/res_l6a.tgz or $OUT/res_l6b.tgz; keep them as runs/l/l6a/ and
# runs/l/l6b/ (with their console output), and give those to runs/l/land_l.sh.
phase=$1
. "$(dirname "$0")/../call_lib.sh" "l6$phase"
left() { echo $(( 580 - $(elapsed) )); }
suite() {  # suite PROJECT DEVICES [gpu_suite.py options]: its record in $R/PROJECT
  local p=$1 devices=$2; shift 2
  if [ "$(left)" -lt 60 ]; then echo "suite $p: no time left at $(elapsed) s"; return 1; fi
  (cd "$X/$p" && CUDA_VISIBLE_DEVICES=$devices MAX_JOBS=8 timeout "$(left)" python3 benchmarks/gpu_suite.py \
     --skip-benchmark --skip-jit --out "$R/$p" "$@" > "$R/${p}_suite.log" 2>&1
   echo "suite $p exit $? at $(elapsed) s: $(tail -n 1 "$R/$p/tests.log" 2>/dev/null)")
  for answers in "$X/$p"/.copier-answers*.yml; do cp "$answers" "$R/$p/${answers##*/.}"; done
  pack
}
case $phase in
  a)
    suite rmsnorm 0,1 &
    (build fused_add_rms_norm && suite fused_add_rms_norm 1,0 --skip-build) &
    (build fused_add_layer_norm && suite fused_add_layer_norm 1,0 --skip-build) &
    wait ;;
  b)
    build layer_norm & build two_families & wait
    suite layer_norm 0,1 --skip-build --skip-sanitizer
    if [ "$(left)" -ge 200 ]; then
      suite two_families 0,1 --skip-build --skip-sanitizer
    else
      echo "suite two_families: $(left) s left, too few (its tests took 165 s in call N)"
    fi ;;
  *) echo "usage: call_l6.sh a|b"; exit 2 ;;
esac
echo "done at $(elapsed) s"; pack
