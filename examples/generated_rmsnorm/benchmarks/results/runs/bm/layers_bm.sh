#!/usr/bin/env bash
# Call BM2 (issue 11; session 53, 2026-11-30), after call BM, on two H200s, carrying .gpu (call BM's
# bundle): the layers' CUDA cases (pytest -k "layer or deferred or traces", both GPUs visible) in the
# four norms' projects whose suites have not run since the layers became torch.nn's own (573f4d6 to
# 5dabb7f): RMSNorm, LayerNorm and the two zero-centred RMSNorms (the residual-add RMSNorm's and
# LayerNorm's suites ran them in call BL's phase 2). All four built at once first. Limit 200 s.
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bm/layers_bm.sh   (timeout_s 230)
# Results in $OUT/res_bm2.tgz, unpacked into runs/bm/bm2/.
. "$(dirname "$0")/../call_lib.sh" bm2
limit=200
[ -f "$X/commit.txt" ] || { echo "no .gpu/ here: carry .gpu"; exit 3; }
echo "GPUs: $(cat "$R/torch.txt")"
PROJECTS="rmsnorm layer_norm gemma_rms_norm fused_add_gemma_rms_norm"
for p in $PROJECTS; do build "$p" 8 150 & done
wait; pack
for p in $PROJECTS; do
  (cd "$X/$p" && timeout $(( limit - $(elapsed) )) python3 -m pytest tests -q -p no:cacheprovider \
     -k "layer or deferred or traces" > "$R/layers_$p.log" 2>&1
   echo "layers $p exit $? at $(elapsed) s: $(tail -n 1 "$R/layers_$p.log")") &
done
wait
echo "done at $(elapsed) s"; pack
