#!/usr/bin/env bash
# Lab AE3 (issue 11), one H200, after labs AE and AE2: branch issue11-backward-shift with fg4's mend as
# it will land (commit ae5c215: the CUDA backward's median shift and the forward's mend of a far
# origin in rows of several passes), .gpu/land/ of `scaffold gpu-bundle`: its layer_norm and
# fused_add_layer_norm projects built; far_margin.py's 20 draws a shape in both; LayerNorm's benchmark
# with Liger-Kernel (carried .whl/), as gpu_suite.py runs it; LayerNorm's suite (tests,
# compute-sanitizer) with one GPU; then the residual-add LayerNorm's benchmark where time is left.
# Not a landing (that needs two GPUs): a look at what the landing call will record.
# Results in $OUT/res_ae3.tgz.
. "$(dirname "$0")/../call_lib.sh" ae3 land
limit=570
X=$X/land
install_liger
for p in layer_norm fused_add_layer_norm; do build "$p" 8 & done
wait; pack
for p in layer_norm fused_add_layer_norm; do
  timeout 60 python3 "$G/far_margin.py" "$X/$p" land "$R/margin.jsonl" 20 > "$R/margin_$p.log" 2>&1
  echo "margin $p exit $? at $(elapsed) s"; pack
done
bench layer_norm; pack
(cd "$X/layer_norm" && MAX_JOBS=8 timeout $(( limit - $(elapsed) )) python3 benchmarks/gpu_suite.py \
   --skip-benchmark --skip-jit --skip-build --out "$R/layer_norm" > "$R/layer_norm_suite.log" 2>&1
 echo "suite layer_norm exit $? at $(elapsed) s: $(tail -n 1 "$R/layer_norm/tests.log" 2>/dev/null)")
pack
if [ $(( limit - $(elapsed) )) -gt 130 ]; then bench fused_add_layer_norm; fi
echo "done at $(elapsed) s"; pack
