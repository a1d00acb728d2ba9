#!/usr/bin/env bash
# Lab BV (issue 11), session 58 (2026-12-01): one call on one H200 (two do no harm: it takes GPU 0),
# carrying .gpu (`scaffold gpu-bundle .gpu` of main), timeout_s 600, about 350 s of command:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bv/lab_bv.sh
# Lab BT found the residual-add LayerNorm's float32 forward at 4096 x 16384 at 321.5 to 322.3 us in
# every process that timed that shape first (the benchmark and e_time.py alike) and at 290.1 us in the
# benchmark's tables run (call BN's table: 288.5), where 32768 x 4096 and 8192 x 8192 came first;
# eager, the copy and 8192 x 8192 did not move. This lab asks what in the tables run makes the
# difference. The residual-add LayerNorm's and residual-add RMSNorm's projects (main) built at once;
# then on GPU 0:
#   place:   bv/place_bv.py on the residual-add LayerNorm: its forward at 4096 x 16384 (device time,
#            the benchmark's timing) with x and residual moved in memory, the outputs' pool moved,
#            and after other shapes' allocations, each case's addresses beside its time, two sweeps;
#   benchmark of the residual-add LayerNorm, float32, without torch.compile but where named:
#            alone1 (4096 x 16384 alone), after32k (32768 x 4096 first), after8k (8192 x 8192
#            first), after64k (1024 x 65536 first), tables (its seven shapes in the tables' order),
#            compile (4096 x 16384 alone, torch.compile too), alone2 (alone1 again);
#   the residual-add RMSNorm's benchmark alone and in the tables' order (does its float32 cell move
#            too?), then place_bv.py on it.
# None starts with under 40 s of the limit (580 s; LIMIT=SECONDS for less) left. Results in
# $OUT/res_bv.tgz: `mkdir -p bv/bv && tar xzf res_bv.tgz -C bv/bv --strip-components=1` in runs/,
# add console.txt, then `python3 bv/summary_bv.py bv/bv > bv/summary_bv.txt`.
. "$(dirname "$0")/../call_lib.sh" bv
lab_start  # limit, gpus, L (call_lib.sh)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab BV wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="")
lab_builds "fused_add_layer_norm fused_add_rms_norm" base
# step PROJECT NAME COMMAND...: call_lib.sh's lab_step in L/PROJECT_base (this lab's two projects).
step() {
  local p=$1 name=$2; shift 2
  P=$p lab_step "$p $name" base "$@"
}
# bench_bv PROJECT TAG [OPTION...]: its benchmark, float32, in R/bench_PROJECT_TAG.*
bench_bv() {
  local p=$1 tag=$2; shift 2
  step "$p" "bench $tag" sh -c 'out=$1; shift; python3 "benchmarks/bench_$0.py" --dtypes float32 "$@" > "$out.log" 2>&1' \
    "$p" "$R/bench_${p}_$tag" --json "$R/bench_${p}_$tag.json" "$@"
}
place_bv() {
  step "$1" place sh -c 'python3 "$0" "$1" "$2.json" > "$2.log" 2>&1' "$G/place_bv.py" "$1" "$R/place_$1"
}
P=fused_add_layer_norm
place_bv $P
bench_bv $P alone1 --shapes 4096x16384 --no-compile
bench_bv $P after32k --shapes 32768x4096 4096x16384 --no-compile
bench_bv $P after8k --shapes 8192x8192 4096x16384 --no-compile
bench_bv $P after64k --shapes 1024x65536 4096x16384 --no-compile
bench_bv $P tables --no-compile
bench_bv $P compile --shapes 4096x16384
bench_bv $P alone2 --shapes 4096x16384 --no-compile
Q=fused_add_rms_norm
bench_bv $Q alone1 --shapes 4096x16384 --no-compile
bench_bv $Q tables --no-compile --no-peers
place_bv $Q
echo "done at $(elapsed) s"; pack
