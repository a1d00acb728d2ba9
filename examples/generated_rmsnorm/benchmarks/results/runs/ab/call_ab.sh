#!/usr/bin/env bash
# GPU call AB (issue 11), two H200s of one host (nvidia-h200-x2): everything branch
# issue11-staged-sums needs before it lands, on the projects of `scaffold gpu-bundle .gpu` made from
# the branch's head (.gpu/commit.txt), carried with each phase (a carried .gpu/ replaces the builds
# of an earlier call, so each phase builds what it runs; builds are call_lib.sh's `build`).
#   bash call_ab.sh bench  the four norms' benchmarks with Liger-Kernel (carried .whl/), two at a time,
#                          one on each GPU (CUDA_VISIBLE_DEVICES=0 or 1), as call P2 ran them
#   bash call_ab.sh a      the suites (tests, compute-sanitizer) of the RMSNorm example, the
#                          residual-add RMSNorm and the residual-add LayerNorm, at once, each with both
#                          GPUs visible: the example's with GPU 0 as its first device, the others' with
#                          GPU 1 (CUDA_VISIBLE_DEVICES=1,0; their second-device and DDP cases use GPU 0)
#   bash call_ab.sh b      LayerNorm's suite (with compute-sanitizer) and the two-family project's
#                          (without), at once, both GPUs visible to each
#   bash call_ab.sh b2     LayerNorm's suite alone, both GPUs visible: in b its memcheck run printed 0
#                          errors and then aborted as the process ended ("terminate called without an
#                          active exception", exit 6), beside the two-family suite, as LayerNorm's and
#                          the RMSNorm example's had beside other suites in call G3-2, and the RMSNorm
#                          example's in call N (alone in N2: clean)
# Each suite's limit is what is left of the call's 580 s. Results tarred into $OUT/res_abPHASE.tgz;
# kept as runs/ab/PHASE/ with the console output, and put where the tables read them by land_ab.sh.
# CALL=NAME names a later call's results res_NAMEPHASE.tgz (the same steps; added after call AB ran,
# which is CALL's default).
phase=$1
. "$(dirname "$0")/../call_lib.sh" "${CALL:-ab}$phase"
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
on_gpu() {  # on_gpu N PROJECT: its benchmark with only GPU N visible
  CUDA_VISIBLE_DEVICES=$1 bench "$2"
}
case $phase in
  bench)
    install_liger
    for p in layer_norm rmsnorm fused_add_rms_norm fused_add_layer_norm; do build "$p" 8 & done
    wait; pack
    on_gpu 0 layer_norm & on_gpu 1 rmsnorm & wait; pack
    on_gpu 0 fused_add_rms_norm & on_gpu 1 fused_add_layer_norm & wait ;;
  a)
    suite rmsnorm 0,1 &
    (build fused_add_rms_norm && suite fused_add_rms_norm 1,0 --skip-build) &
    (build fused_add_layer_norm && suite fused_add_layer_norm 1,0 --skip-build) &
    wait ;;
  b)
    suite layer_norm 0,1 &
    suite two_families 1,0 --skip-sanitizer &
    wait ;;
  b2)
    suite layer_norm 0,1 ;;
  *) echo "usage: call_ab.sh bench|a|b|b2"; exit 2 ;;
esac
echo "done at $(elapsed) s"; pack
