#!/usr/bin/env bash
# Lab BT (issue 11), prepared in session 57 (2026-12-01) for a later session: one call on one H200
# (nvidia-h200; two GPUs do no harm: it takes GPU 0 and logs only its clocks), carrying .gpu
# (`scaffold gpu-bundle .gpu` of main), timeout_s 600, about 500 s of command:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bt/lab_bt.sh
# Why call BS's benchmark and lab BQ's e_time.py timed the residual-add LayerNorm's float32 forward at
# 4096 x 16384 11% apart (base: 288.5 us in call BN's benchmark, 320.8 in lab BQ; eightb: 302.6 in
# call BS's benchmark, 307.4 in lab BQ), where at 8192 x 8192 they agree. Two builds of the
# residual-add LayerNorm's project, base (main) and eightb (bq/variant_bq.py), at once; then on GPU 0,
# with nvidia-smi logging GPU 0's clocks, power, temperature and the clocks' event reasons every
# 500 ms (R/clocks.csv) and each step's start and end (R/steps.txt, seconds since the epoch):
#   rounds 1 and 2, base then eightb, float32 at 4096 x 16384 and 8192 x 8192 (in that order):
#                  the benchmark without torch.compile (bench_fused_add_layer_norm.py --no-compile:
#                  ours, eager and the copy; this norm has no Liger-Kernel peer); e_time.py as the
#                  labs run it; with B_SETTINGS=normal (the benchmark's replay count and budget); with
#                  B_FIRST=forward (a forward discarded first where the labs discard a
#                  forward+backward); B_FIRST=none; B_FIRST=bench (what the benchmark does before
#                  ours' device time: the copy's timings, ours' and eager's per-call times);
#   round 3:       the benchmark as the tables run it, float32 only (its seven shapes in the tables'
#                  order, torch.compile too), base then eightb.
# None starts with under 45 s of the limit (580 s; LIMIT=SECONDS for less) left. Results in
# $OUT/res_bt.tgz: `mkdir -p bt/bt && tar xzf res_bt.tgz -C bt/bt --strip-components=1` in runs/, add
# console.txt, then `python3 bt/summary_bt.py bt/bt > bt/summary_bt.txt`. What each outcome would
# mean, set before the run: the runs README's `bt/` entry.
. "$(dirname "$0")/../call_lib.sh" bt
lab_start  # limit, gpus, L (call_lib.sh)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab BT wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="" [eightb]="bq:eightb")
lab_builds fused_add_layer_norm "base eightb"
nvidia-smi -i 0 --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active \
  --format=csv -lms 500 > "$R/clocks.csv" 2>&1 &
smi=$!
P=fused_add_layer_norm
# step NAME COMMAND...: COMMAND in L/P_BUILD's folder (BUILD: NAME's first word), its start and end in
# R/steps.txt; none started with 45 s or less of the limit left.
step() {
  local name=$1; shift
  [ "$(lab_left)" -gt 45 ] || { echo "$name not run: $(elapsed) s"; return; }
  echo "start $name $(date -u +%s.%N)" >> "$R/steps.txt"
  (cd "$L/${P}_${name%% *}" && CUDA_VISIBLE_DEVICES=0 timeout "$(( $(lab_left) - 5 ))" "$@")
  local rc=$?
  echo "end $name $(date -u +%s.%N)" >> "$R/steps.txt"
  echo "$name exit $rc at $(elapsed) s"
  pack
}
# bench_bt BUILD TAG [OPTION...]: the benchmark of BUILD, float32, in R/bench_BUILD_TAG.*
bench_bt() {
  local b=$1 tag=$2; shift 2
  step "$b bench $tag" sh -c 'out=$1; shift; python3 "benchmarks/bench_$0.py" --dtypes float32 "$@" > "$out.log" 2>&1' \
    "$P" "$R/bench_${b}_$tag" --json "$R/bench_${b}_$tag.json" "$@"
}
# time_bt BUILD TAG [ASSIGNMENT...]: e_time.py on BUILD at the two shapes, in R/time_BUILD_TAG.*
time_bt() {
  local b=$1 tag=$2; shift 2
  step "$b time $tag" env B_SHAPES=4096x16384,8192x8192 B_DTYPES=float32 "$@" \
    sh -c 'python3 "$0" "$1" "$2" "$3.json" > "$3.log" 2>&1' "$G/../e/e_time.py" "$P" "$b" "$R/time_${b}_$tag"
}
for round in 1 2; do
  for b in base eightb; do
    bench_bt "$b" "plain$round" --shapes 4096x16384 8192x8192 --no-compile
    time_bt "$b" "lab$round"
    time_bt "$b" "normal$round" B_SETTINGS=normal
    time_bt "$b" "forward$round" B_FIRST=forward
    time_bt "$b" "none$round" B_FIRST=none
    time_bt "$b" "bench$round" B_FIRST=bench
  done
done
for b in base eightb; do bench_bt "$b" tables; done
kill "$smi" 2> /dev/null
echo "done at $(elapsed) s"; pack
