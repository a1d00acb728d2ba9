#!/usr/bin/env bash
# Landing call AG (issue 11), on one H200 (nvidia-h200): the suites of the four norms (the RMSNorm
# example's and the other three's, gpu_suite.py: tests and compute-sanitizer) for the renderings of
# `scaffold gpu-bundle .gpu` at a commit whose kernels changed only where no benchmark shape reaches
# on an H200: the forward's mend of LayerNorm's rows read in several passes whose first element lies
# far (lab AE of ../ae/; rows of several passes are wider than an H200's clusters hold, which no
# benchmark shape is). So the benchmarks stay those of call AB, which the tables say measured other
# kernel sources, and the two-GPU cases those of call AB's suites (two GPUs visible; land_ag.sh keeps
# them in each norm's two_gpus/). Three phases, each a call of its own carrying .gpu (a carried folder
# did not stay for the next call, even on the machine still warm), one right after another (the
# machine goes back after 30 s idle):
#   bash call_ag.sh a   builds the four projects at once, then LayerNorm's suite
#   bash call_ag.sh b   builds the residual-add LayerNorm's project, then its suite
#   bash call_ag.sh c   builds the RMSNorm example's and the residual-add RMSNorm's projects, then
#                       their suites
# Phase a ran twice: first on the bundle of dd8875e, whose LayerNorm suite failed one test of its own
# (torch's CUDA LayerNorm, its reference, refused a bfloat16 x with float32 parameters; a1/), then, the
# test mended (the same kernel sources), with the bundle of that mend's commit, edcfe89, which phases b
# and c ran too. (The first tries of b and c, which carried nothing and ran the script's b and c of
# then, found no .gpu/ and stopped; those phases were then written as above.)
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
