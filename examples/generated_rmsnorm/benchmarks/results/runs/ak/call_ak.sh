#!/usr/bin/env bash
# Landing call AK (issue 11), on two H200s of one host (nvidia-h200-x2): the residual-add norms'
# CUDA backward stages grad_residual_out as a third tensor (lab AJ's variant st, as the template now
# writes it: where the GPU gives a block the room, else x and grad_out alone), on the projects of
# `scaffold gpu-bundle .gpu` made from that commit (.gpu/commit.txt). Each phase is a call of its
# own carrying .gpu (phase 1 also .whl: Liger-Kernel 0.8.5's wheel), one right after another, so
# each phase builds what it runs.
#   bash call_ak.sh 1  the residual-add norms' projects built, their CUDA tests of the backward and of
#                      its staging first (one project on each GPU; a broken change stops here), then
#                      their benchmarks at once, one on each GPU, as calls P2, AB and AI ran them
#   bash call_ak.sh 2  the suites (tests, compute-sanitizer) of the residual-add RMSNorm, the
#                      residual-add LayerNorm and the RMSNorm example at once, each with both GPUs
#                      visible, as call AI's phase 2 ran them (every norm's kernels take the new
#                      argument, and the host's choice of stages is written anew for all)
#   bash call_ak.sh 3  LayerNorm's suite with both GPUs visible, beside the two-family project's
#                      (without compute-sanitizer) and the RMSNorm example's build; then the RMSNorm
#                      example's suite again, alone (in phase 2 its memcheck run printed 0 errors and
#                      aborted as its process ended, exit 6, as in calls AB and AI; written after
#                      phase 2 ran)
# Each suite's limit is what is left of the call's 580 s. Results in $OUT/res_akPHASE.tgz, unpacked
# into runs/ak/PHASE/ with the console output as console.txt; then land_ak.sh and
# `scaffold results-table --write`.
phase=$1
. "$(dirname "$0")/../call_lib.sh" "ak$phase"
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
    for p in fused_add_rms_norm fused_add_layer_norm; do build "$p" 16 & done
    wait; pack
    K="not cpu and (backward or shared_memory or cluster or cuda_graph or misaligned or gradients_through)"
    first() {  # first PROJECT GPU
      (cd "$X/$1" && CUDA_VISIBLE_DEVICES=$2 timeout 200 python3 -m pytest tests -q -p no:cacheprovider \
         -k "$K" > "$R/first_$1.log" 2>&1)
      local rc=$?; echo "first tests $1 exit $rc at $(elapsed) s: $(tail -n 1 "$R/first_$1.log")"
      return $rc
    }
    first fused_add_rms_norm 0 & a=$!; first fused_add_layer_norm 1 & b=$!
    wait $a; ra=$?; wait $b; rb=$?; pack
    [ $ra -eq 0 ] && [ $rb -eq 0 ] || { echo "a first test did not pass: stopping"; exit 1; }
    install_liger
    CUDA_VISIBLE_DEVICES=0 bench fused_add_rms_norm & CUDA_VISIBLE_DEVICES=1 bench fused_add_layer_norm & wait ;;
  2)
    two_gpu_suite rmsnorm 0,1 &
    (build fused_add_rms_norm 10 && two_gpu_suite fused_add_rms_norm 1,0 --skip-build) &
    (build fused_add_layer_norm 10 && two_gpu_suite fused_add_layer_norm 1,0 --skip-build) &
    wait ;;
  3)
    two_gpu_suite layer_norm 0,1 &
    (build two_families 12 && two_gpu_suite two_families 1,0 --skip-build --skip-sanitizer) &
    build rmsnorm 4 &
    wait
    two_gpu_suite rmsnorm 0,1 --skip-build ;;
  *) echo "usage: call_ak.sh 1|2|3"; exit 2 ;;
esac
echo "done at $(elapsed) s"; pack
