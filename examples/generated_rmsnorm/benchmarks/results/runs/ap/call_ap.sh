#!/usr/bin/env bash
# Landing call AP (issue 11), prepared in session 41 (2026-11-29) for a later session, on two H200s of
# one host (nvidia-h200-x2): lab AN's an2 in the template (../an/template_an2.diff: bfloat16 read a
# word at a time from the backward's stages, 1 / N a kernel argument, the stages' indices in 32 bits,
# the row sums by reduce-scatter), on the projects of `scaffold gpu-bundle .gpu` made from the commit
# that applies it (.gpu/commit.txt). Every norm's backward kernels change, and the two LayerNorms'
# staged forwards (their row sums; sum_rows does not change), so every norm's suite and benchmark land
# again. Each phase is a call
# of its own carrying .gpu (phase 1 also .whl: Liger-Kernel 0.8.5's wheel), one right after another,
# so each phase builds what it runs.
#   bash call_ap.sh 1  the four norms' projects built; their CUDA tests of the backward, of its
#                      staging and of the staged forward first (two projects on each GPU; a broken
#                      change stops here); then their benchmarks, two after each other on each GPU
#                      (about 120 s each; the second not started with under 170 s left, which a
#                      later call then runs: the landing refuses a missing benchmark)
#   bash call_ap.sh 2  the residual-add norms' suites (tests, compute-sanitizer) at once, each with
#                      both GPUs visible, as call AK's phase 2 ran them
#   bash call_ap.sh 3  LayerNorm's suite with both GPUs visible, beside the two-family project's
#                      (without compute-sanitizer) and the RMSNorm example's build; then the RMSNorm
#                      example's suite alone (beside other suites its memcheck run has printed 0 errors
#                      and aborted as its process ended, exit 6: calls AB, AI and AK)
# Each suite's limit is what is left of the call's 580 s. Results in $OUT/res_apPHASE.tgz, unpacked
# into runs/ap/PHASE/ with the console output as console.txt; then land_ap.py and
# `scaffold results-table --write`. From call AV on (session 45), a later landing whose change needs
# these same phases takes them under its own name: `CALL=av bash call_ap.sh 1` packs res_av1.tgz.
#                      (On one GPU, from session 55 on: PROJECTS="NORM..." names the projects, all
#                      four unless given; their benchmarks in turn, each started only with 170 s
#                      left; a later call names those left. DDP is not run there.)
#   (Phases 2 and 3 need two GPUs, from session 55 on refused at once on one: there each suite runs
#   alone, `SUITE=NORM bash call_ap.sh 4`, whose devices 0,1 leave GPU 0 visible, about 330 s a call.)
#   SUITE=NORM bash call_ap.sh 4  (from call AW on) NORM's suite again, alone (layer_norm unless named)
#   DDP=1 bash call_ap.sh 1  (from session 46 on) phase 1, then ../ax/ddp_ax.py (DDP's training step with
#                      and without the workspace) in RMSNorm's and the residual-add RMSNorm's projects,
#                      on both GPUs, in what is left of the limit (90 s each at most)
phase=$1
. "$(dirname "$0")/../call_lib.sh" "${CALL:-ap}$phase"
limit=580
[ -f "$X/commit.txt" ] || { echo "no .gpu/ here: carry .gpu"; exit 3; }
echo "GPUs: $(cat "$R/torch.txt")"
one_gpu() { [ "$(python3 -c 'import torch; print(torch.cuda.device_count())')" -eq 1 ]; }
case $phase in
  2|3) one_gpu && { echo "phase $phase needs two GPUs: on one, SUITE=NORM CALL=${CALL:-ap} bash call_ap.sh 4 for each norm"; exit 2; } ;;
esac
case $phase in
  1)
    ls "$root"/.whl/*.whl > /dev/null 2>&1 || { echo "no .whl/ here: carry .whl"; exit 3; }
    if one_gpu; then
      # One GPU (from session 55 on, when only nvidia-h200 was lent): the projects named in PROJECTS
      # (all four unless named) built, their first tests and their benchmarks in turn, in the order
      # named; a benchmark not started with under 170 s left is left for a later call, which names
      # the projects left (its archive unpacked into a folder of its own: runs/CALL/1b/).
      projects=${PROJECTS:-layer_norm rmsnorm fused_add_layer_norm fused_add_rms_norm}
      for p in $projects; do build "$p" 4 & done
      wait; pack
      # (FIRST_TESTS, from session 63 on: another -k expression, for a landing whose change the
      # default does not reach, as landing CL's warp rows: the runs README's cl/ entry.)
      K1=${FIRST_TESTS:-"not cpu and (backward or shared_memory or cluster or cuda_graph or misaligned or gradients_through or staged or forward_and_backward_match_reference)"}
      for p in $projects; do first_tests "$p" 0 "$K1" || { pack; echo "a first test did not pass: stopping"; exit 1; }; done
      pack; install_liger
      for p in $projects; do
        if [ $(( limit - $(elapsed) )) -ge 170 ]; then CUDA_VISIBLE_DEVICES=0 bench "$p"; pack
        else echo "bench $p: left for a later call (at $(elapsed) s)"; fi
      done
      echo "done at $(elapsed) s"; pack; exit 0
    fi
    for p in rmsnorm layer_norm fused_add_rms_norm fused_add_layer_norm; do build "$p" 8 & done
    wait; pack
    K="not cpu and (backward or shared_memory or cluster or cuda_graph or misaligned or gradients_through or staged or forward_and_backward_match_reference)"
    (first_tests rmsnorm 0 "$K" && first_tests layer_norm 0 "$K") & a=$!
    (first_tests fused_add_rms_norm 1 "$K" && first_tests fused_add_layer_norm 1 "$K") & b=$!
    wait $a; ra=$?; wait $b; rb=$?; pack
    [ $ra -eq 0 ] && [ $rb -eq 0 ] || { echo "a first test did not pass: stopping"; exit 1; }
    install_liger
    second() {  # second GPU PROJECT: the GPU's second benchmark, where 170 s are left for it
      if [ $(( limit - $(elapsed) )) -ge 170 ]; then CUDA_VISIBLE_DEVICES=$1 bench "$2"
      else echo "bench $2: left for a later call (at $(elapsed) s)"; fi
    }
    (CUDA_VISIBLE_DEVICES=0 bench rmsnorm; pack; second 0 layer_norm) &
    (CUDA_VISIBLE_DEVICES=1 bench fused_add_rms_norm; pack; second 1 fused_add_layer_norm) &
    wait
    if [ -n "${DDP:-}" ]; then  # (from session 46, for keep5's landing; call_lib.sh's ddp_time)
      for p in rmsnorm fused_add_rms_norm; do ddp_time "$p" "$X/$p" 0; done
    fi ;;
  2)
    (build fused_add_rms_norm 16 && two_gpu_suite fused_add_rms_norm 0,1 --skip-build) &
    (build fused_add_layer_norm 16 && two_gpu_suite fused_add_layer_norm 1,0 --skip-build) &
    wait ;;
  3)
    two_gpu_suite layer_norm 0,1 &
    (build two_families 12 && two_gpu_suite two_families 1,0 --skip-build --skip-sanitizer) &
    build rmsnorm 4 &
    wait
    two_gpu_suite rmsnorm 0,1 --skip-build ;;
  4)  # (from call AW on) one norm's suite again, alone, both GPUs visible: where phase 3's memcheck
      # run beside other suites printed 0 errors and aborted as its process ended (exit 6)
    two_gpu_suite "${SUITE:-layer_norm}" 0,1 ;;
  *) echo "usage: call_ap.sh 1|2|3|4"; exit 2 ;;
esac
echo "done at $(elapsed) s"; pack
