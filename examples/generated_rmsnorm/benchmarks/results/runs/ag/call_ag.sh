#!/usr/bin/env bash
# Landing call AG (issue 11), on one H200 (nvidia-h200): the suites of the four norms (the RMSNorm
# example's and the other three's, gpu_suite.py: tests and compute-sanitizer) for the renderings of
# `scaffold gpu-bundle .gpu` at a commit whose kernels changed only where no benchmark shape reaches
# on an H200: the forward's mend of LayerNorm's rows read in several passes whose first element lies
# far (lab AE of ../ae/; rows of several passes are wider than an H200's clusters hold, which no
# benchmark shape is). So the benchmarks stay those of call AB, which the tables say measured other
# kernel sources, and the two-GPU cases those of call AB's suites (two GPUs visible; land_ag.sh keeps
# them in each norm's two_gpus/). Three phases, each a call of its own, on one warm machine:
#   bash call_ag.sh a   builds the four projects at once (carry .gpu), then LayerNorm's suite
#   bash call_ag.sh b   the residual-add LayerNorm's suite, then the RMSNorm example's (carry nothing:
#                       the built .gpu/ stays on the machine between calls)
#   bash call_ag.sh c   the residual-add RMSNorm's suite (carry nothing)
# The machine goes back after 30 s idle: make the three calls one right after another. Phase a ran
# twice: first on the bundle of dd8875e, whose LayerNorm suite failed one test of its own (torch's
# CUDA LayerNorm, its reference, refused a bfloat16 x with float32 parameters; a1/), then, the test
# mended (the same kernel sources), on a fresh machine with the bundle of that mend's commit, which
# phases b and c ran too.
# One suite at a time on the GPU (suites beside one another had compute-sanitizer abort as a process
# ended: calls G3-2, N and AB). Results in $OUT/res_agPHASE.tgz, unpacked into runs/ag/PHASE/ with
# each call's console output as console.txt.
phase=$1
. "$(dirname "$0")/../call_lib.sh" "ag$phase"
limit=580
[ -f "$X/commit.txt" ] || { echo "no .gpu/ here: make phase a's call carrying .gpu"; exit 3; }
case $phase in
  a)
    for p in layer_norm fused_add_layer_norm rmsnorm fused_add_rms_norm; do build "$p" 4 & done
    wait; pack
    suite layer_norm --skip-build ;;
  b)
    build fused_add_layer_norm 16; pack
    suite fused_add_layer_norm --skip-build ;;
  c)
    limit=590
    for p in rmsnorm fused_add_rms_norm; do build "$p" 8 & done
    wait; pack
    suite rmsnorm --skip-build; pack
    suite fused_add_rms_norm --skip-build ;;
  *) echo "usage: call_ag.sh a|b|c"; exit 2 ;;
esac
echo "done at $(elapsed) s"; pack
