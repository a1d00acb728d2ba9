#!/usr/bin/env bash
# Lab CA (issue 11), session 59 (2026-12-01): one call on one H200, carrying .gpu (`scaffold gpu-bundle
# .gpu` of main), timeout_s 600, about 400 s of command:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/ca/lab_ca.sh
# Lab BZ (runs/bz/) found `wlast` (weight and bias read with an L2 evict_last policy) fast at the
# residual-add LayerNorm's float32 forward at 4096 x 16384 (289.1 us, 89.7%) and no cell slower than
# 1.002 of base's; `ldcs` faster there still (285.6) but slower elsewhere. The residual-add LayerNorm's
# and LayerNorm's projects built three times each at once: base (main), wlast (bz/variant_bz.py) and
# wrr (ca/variant_ca.py: wlast with ld.global.cs where the residual-add forward reads x and residual
# element by element); then on GPU 0 the benchmark without torch.compile, every dtype: the residual-add
# LayerNorm's base, wlast, wrr and base again, then LayerNorm's base and wlast (wrr changes nothing
# LayerNorm runs: it has no residual). None starts with under 40 s of the limit (580 s; LIMIT=SECONDS
# for less) left. Results in $OUT/res_ca.tgz: `mkdir -p ca/ca && tar xzf res_ca.tgz -C ca/ca
# --strip-components=1` in runs/, add console.txt. What each outcome would mean: the runs README's
# `ca/` entry.
. "$(dirname "$0")/../call_lib.sh" ca
lab_start  # limit, gpus, L (call_lib.sh)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab CA wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="" [wlast]="bz:wlast" [wrr]="ca:wrr")
declare -A OPS=([fused_add_layer_norm]=fused_add_layer_norm [layer_norm]=layer_norm)
lab_builds "fused_add_layer_norm layer_norm" "base wlast wrr"
bench_ca() {  # bench_ca PROJECT BUILD: its benchmark without torch.compile in R/bench_PROJECT_BUILD[_again].*
  local p=$1 b=$2 tag=$1_$2
  [ -f "$R/bench_$tag.log" ] && tag=${tag}_again
  P=$p lab_step "bench $tag" "$b" sh -c 'python3 "benchmarks/bench_$0.py" --no-compile --json "$1.json" > "$1.log" 2>&1' \
    "${OPS[$p]}" "$R/bench_$tag"
}
for b in base wlast wrr base; do bench_ca fused_add_layer_norm "$b"; done
for b in base wlast; do bench_ca layer_norm "$b"; done
echo "done at $(elapsed) s"; pack
