#!/usr/bin/env bash
# Call BJ (session 52, 2026-11-30), on two H200s (nvidia-h200-x2), in the device time left after call
# BH2's three phases, carrying .gpu of main at 453d4a1 with only the three projects it builds:
#   1. the zero-centred norms' (gemma_rms_norm, fused_add_gemma_rms_norm) two-GPU tests, which call
#      BI's one-GPU suites skipped: test_second_device and test_training_under_distributed_data_parallel
#      (NCCL on both GPUs), both GPUs visible;
#   2. the residual-add LayerNorm's benchmark again, alone on GPU 0: a second sample of its float16
#      4096 x 16384 forward+backward, which call BH2 timed at 290.6 us against 279.8 in call BH's phase
#      1 with the same kernels (the backward, which call BH's change leaves alone, took the 10 us more).
# Not landed: a record beside call BH2's.    bash call_bj.sh   (results in $OUT/res_bj.tgz)
. "$(dirname "$0")/../call_lib.sh" bj
limit=420
[ -f "$X/commit.txt" ] || { echo "no .gpu/ here: carry .gpu"; exit 3; }
echo "GPUs: $(cat "$R/torch.txt")"
for p in gemma_rms_norm fused_add_gemma_rms_norm fused_add_layer_norm; do build "$p" 10 & done
wait; pack
for p in gemma_rms_norm fused_add_gemma_rms_norm; do
  (cd "$X/$p" && CUDA_VISIBLE_DEVICES=0,1 timeout 120 python3 -m pytest tests -q -p no:cacheprovider -rs \
     -k "second_device or distributed_data_parallel" > "$R/two_gpus_$p.log" 2>&1
   echo "two-GPU tests $p exit $? at $(elapsed) s: $(tail -n 1 "$R/two_gpus_$p.log")")
  cp "$X/$p"/.copier-answers.yml "$R/answers_$p.yml"; pack
done
if [ $(( limit - $(elapsed) )) -ge 150 ]; then CUDA_VISIBLE_DEVICES=0 bench fused_add_layer_norm
else echo "bench fused_add_layer_norm: not started at $(elapsed) s"; fi
echo "done at $(elapsed) s"; pack
