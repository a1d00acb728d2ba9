#!/usr/bin/env bash
# Landing call AI (issue 11), on two H200s of one host (nvidia-h200-x2): runs/ah/'s prepared landing
# (ah.patch, committed) and one predicate for a row far from its shift (lies_far, statistics.h), on
# the projects of `scaffold gpu-bundle .gpu` made from that commit (.gpu/commit.txt). Each phase is
# a call of its own carrying .gpu (phase 1 also .whl: Liger-Kernel 0.8.5's wheel), made one right
# after another (a carried folder does not stay for the next call, and the machine goes back after
# 30 s idle: call AG), so each phase builds what it runs.
#   bash call_ai.sh 1  LayerNorm's and the residual-add LayerNorm's projects built, their CUDA tests
#                      of far rows and of the forward's vectors a thread first (one project on each
#                      GPU; a broken change stops here), then their benchmarks at once, one on each
#                      GPU (CUDA_VISIBLE_DEVICES=0 or 1), as calls P2 and AB ran them
#   bash call_ai.sh 2  the suites (tests, compute-sanitizer) of the RMSNorm example, the residual-add
#                      RMSNorm and the residual-add LayerNorm at once, each with both GPUs visible
#                      (the example's with GPU 0 first, the others' with GPU 1 first), as call AB's
#                      phase a ran them
#   bash call_ai.sh 3  LayerNorm's suite alone with both GPUs visible (beside another suite, its
#                      memcheck run aborted as its process ended in call AB's phase b), then the
#                      residual-add RMSNorm's again, alone (in phase 2 its memcheck run printed 0
#                      errors and aborted as its process ended, exit 6, as in call AB), built while
#                      LayerNorm's ran (written after phase 2 ran)
#   bash call_ai.sh 4  the two-family project's suite (without compute-sanitizer), both GPUs visible
#   bash call_ai.sh 5  (after the review, on the bundle of the commit that gave the far-from-zero
#                      test two far columns) both LayerNorms built, that test's CUDA cases, one
#                      project on each GPU
# The RMSNorm kernels compile as before (lies_far is LayerNorm's alone: ptxas, runs/ai/ptxas/), so
# their benchmarks stay call AB's. Each suite's limit is what is left of the call's 580 s. Results
# in $OUT/res_aiPHASE.tgz, unpacked into runs/ai/PHASE/ with the console output as console.txt; then
# land_ai.sh and `scaffold results-table --write`.
phase=$1
. "$(dirname "$0")/../call_lib.sh" "ai$phase"
limit=580
[ -f "$X/commit.txt" ] || { echo "no .gpu/ here: carry .gpu"; exit 3; }
echo "GPUs: $(cat "$R/torch.txt")"
two_gpu_suite() {  # two_gpu_suite PROJECT DEVICES [gpu_suite.py options]: call_lib.sh's suite, both GPUs visible
  local p=$1 devices=$2; shift 2
  CUDA_VISIBLE_DEVICES=$devices suite "$p" "$@"; pack
}
case $phase in
  1)
    ls "$root"/.whl/*.whl > /dev/null 2>&1 || { echo "no .whl/ here: carry .whl"; exit 3; }
    for p in layer_norm fused_add_layer_norm; do build "$p" 16 & done
    wait; pack
    first() {  # first PROJECT GPU
      (cd "$X/$1" && CUDA_VISIBLE_DEVICES=$2 timeout 150 python3 -m pytest tests -q -p no:cacheprovider \
         -k "(far or vectors_a_thread) and cuda" > "$R/first_$1.log" 2>&1)
      local rc=$?; echo "first tests $1 exit $rc at $(elapsed) s: $(tail -n 1 "$R/first_$1.log")"
      return $rc
    }
    first layer_norm 0 & a=$!; first fused_add_layer_norm 1 & b=$!
    wait $a; ra=$?; wait $b; rb=$?; pack
    [ $ra -eq 0 ] && [ $rb -eq 0 ] || { echo "a first test did not pass: stopping"; exit 1; }
    install_liger
    CUDA_VISIBLE_DEVICES=0 bench layer_norm & CUDA_VISIBLE_DEVICES=1 bench fused_add_layer_norm & wait ;;
  2)
    two_gpu_suite rmsnorm 0,1 &
    (build fused_add_rms_norm 10 && two_gpu_suite fused_add_rms_norm 1,0 --skip-build) &
    (build fused_add_layer_norm 10 && two_gpu_suite fused_add_layer_norm 1,0 --skip-build) &
    wait ;;
  3)
    build fused_add_rms_norm 16 & t=$!
    two_gpu_suite layer_norm 0,1
    wait $t && two_gpu_suite fused_add_rms_norm 0,1 --skip-build ;;
  4) build two_families 16 && two_gpu_suite two_families 1,0 --skip-build --skip-sanitizer ;;
  5)
    for p in layer_norm fused_add_layer_norm; do build "$p" 16 & done
    wait; pack
    check() {  # check PROJECT GPU
      (cd "$X/$1" && CUDA_VISIBLE_DEVICES=$2 timeout 200 python3 -m pytest tests -q -p no:cacheprovider \
         -k "some_deviations_out and cuda" > "$R/deviations_$1.log" 2>&1)
      echo "deviations tests $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/deviations_$1.log")"
    }
    check layer_norm 0 & check fused_add_layer_norm 1 & wait ;;
  *) echo "usage: call_ai.sh 1|2|3|4|5"; exit 2 ;;
esac
echo "done at $(elapsed) s"; pack
