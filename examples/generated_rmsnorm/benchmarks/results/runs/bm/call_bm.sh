#!/usr/bin/env bash
# Call BM (issue 11; session 53, 2026-11-30), one call on two H200s (nvidia-h200-x2), carrying .gpu
# (`scaffold gpu-bundle .gpu` of the commit that call BL's failure led to: kFusedOutput with x_hat
# subtracting first) and .whl (Liger-Kernel 0.8.5's wheel):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bm/call_bm.sh   (timeout_s 600)
# The two LayerNorms' projects and the two zero-centred RMSNorms' built at once; the first tests of
# call_ap.sh's phase 1 and the tests that failed in call BL (test_rows_of_one_large_element) and the
# far rows' (LayerNorm on GPU 0, then the zero-centred RMSNorm; the residual-add ones on GPU 1; a
# failure stops here); then the benchmarks, two at a time: LayerNorm on GPU 0 beside the residual-add
# LayerNorm on GPU 1, then the zero-centred RMSNorm beside its residual-add project (none started with
# under 150 s left). These benchmarks are of the same kernel sources as a later call's suites of this
# commit, with which a later landing can take them. Results in $OUT/res_bm.tgz: `mkdir -p bm/bm && tar
# xzf res_bm.tgz -C bm/bm --strip-components=1` in runs/, then console.txt.
. "$(dirname "$0")/../call_lib.sh" bm
limit=560
[ -f "$X/commit.txt" ] || { echo "no .gpu/ here: carry .gpu"; exit 3; }
ls "$root"/.whl/*.whl > /dev/null 2>&1 || { echo "no .whl/ here: carry .whl"; exit 3; }
echo "GPUs: $(cat "$R/torch.txt")"
OP[gemma_rms_norm]=gemma_rms_norm
OP[fused_add_gemma_rms_norm]=fused_add_gemma_rms_norm
for p in layer_norm fused_add_layer_norm gemma_rms_norm fused_add_gemma_rms_norm; do build "$p" 8 & done
wait; pack
K="not cpu and (backward or shared_memory or cluster or cuda_graph or misaligned or gradients_through or staged or forward_and_backward_match_reference or large_element or far)"
(first_tests layer_norm 0 "$K" && first_tests gemma_rms_norm 0 "$K") & a=$!
(first_tests fused_add_layer_norm 1 "$K" && first_tests fused_add_gemma_rms_norm 1 "$K") & b=$!
wait $a; ra=$?; wait $b; rb=$?; pack
[ $ra -eq 0 ] && [ $rb -eq 0 ] || { echo "a first test did not pass: stopping"; exit 1; }
install_liger
bench_if_time() {  # bench_if_time GPU PROJECT
  if [ $(( limit - $(elapsed) )) -ge 150 ]; then CUDA_VISIBLE_DEVICES=$1 bench "$2"
  else echo "bench $2: left for a later call (at $(elapsed) s)"; fi
  pack
}
(bench_if_time 0 layer_norm) & (bench_if_time 1 fused_add_layer_norm) & wait
(bench_if_time 0 gemma_rms_norm) & (bench_if_time 1 fused_add_gemma_rms_norm) & wait
echo "done at $(elapsed) s"; pack
