#!/usr/bin/env bash
# Lab CJ (issue 11), session 63 (2026-12-01): one call on one H200, carrying .gpu/layer_norm,
# .gpu/fused_add_rms_norm and .gpu/commit.txt (`scaffold gpu-bundle .gpu` of main), timeout_s 600,
# about 550 s of command:
#   LIMIT=590 bash examples/generated_rmsnorm/benchmarks/results/runs/cj/lab_cj.sh
# Whether lab CI's warp rows' kernel gains at 4096 x 1024 with its passes' sums split into
# independent chains (cj/variant_cj.py's wr2), and with it launched on blocks of one warp (wr2b);
# and what wr2 does to the residual-add RMSNorm. Both projects built as base, wr2 and wr2b at once
# (one lab_builds call; the residual-add RMSNorm's wr2b is neither tested nor timed); LayerNorm's
# wr2 suite, wr2b's CUDA-shape and far-row tests, and the residual-add RMSNorm's wr2 suite on GPU 0;
# then the benchmarks without torch.compile, every dtype: LayerNorm's base, wr2, wr2b and base
# again, the residual-add RMSNorm's base, wr2 and base again. None starts with under 40 s of the
# limit (LIMIT, default 580 s) left. Results in $OUT/res_cj.tgz: `mkdir -p cj/cj && tar xzf
# res_cj.tgz -C cj/cj --strip-components=1` in runs/, add console.txt; then `python3 compare_cj.py
# > compare_cj.txt` in runs/cj/. Outcomes: the runs README's `cj/` entry.
. "$(dirname "$0")/../call_lib.sh" cj
lab_start  # limit (LIMIT), gpus (at least one), L (call_lib.sh)
declare -A LAB_EDITS=([base]="" [wr2]="cj:wr2" [wr2b]="cj:wr2b")
declare -A OPS=([layer_norm]=layer_norm [fused_add_rms_norm]=fused_add_rms_norm)
lab_builds "layer_norm fused_add_rms_norm" "base wr2 wr2b"  # (the residual-add RMSNorm's wr2b is not timed)
# wr2b's tests: those of the CUDA shapes and of far first elements (its kernel is wr2's; only its
# launch differs).
for pb in layer_norm:wr2 layer_norm:wr2b fused_add_rms_norm:wr2; do
  k=""; [ "${pb##*:}" = wr2b ] && k="cuda_shapes or far"
  P=${pb%%:*} lab_step "tests $pb" "${pb##*:}" sh -c 'python3 -m pytest tests -q -p no:cacheprovider -k "$1" > "$0" 2>&1; r=$?; tail -n 1 "$0"; exit $r' \
    "$R/tests_${pb%%:*}_${pb##*:}.log" "$k"
done
for b in base wr2 wr2b base; do lab_bench layer_norm "$b"; done
for b in base wr2 base; do lab_bench fused_add_rms_norm "$b"; done
echo "done at $(elapsed) s"; pack
