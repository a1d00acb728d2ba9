#!/usr/bin/env bash
# Lab BT (issue 11), prepared in session 57 (2026-12-01) for a later session: one call on one H200
# (nvidia-h200; two GPUs do no harm: it takes GPU 0), carrying .gpu (`scaffold gpu-bundle .gpu` of main)
# and .whl (Liger-Kernel 0.8.5's wheel), timeout_s 600, about 470 s of command:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bt/lab_bt.sh
# Why call BS's benchmark and lab BQ's e_time.py timed the residual-add LayerNorm's float32 forward at
# 4096 x 16384 11% apart (base: 288.5 us in call BN's benchmark, 320.8 in lab BQ; eightb: 302.6 in
# call BS's benchmark, 307.4 in lab BQ), where at 8192 x 8192 they agree. Two builds of the
# residual-add LayerNorm's project, base (main) and eightb (bq/variant_bq.py), at once; then on GPU 0,
# at float32 4096 x 16384 and 8192 x 8192, with nvidia-smi logging the clocks, power, temperature and
# the clocks' event reasons every 500 ms (R/clocks.csv), for base then eightb in each round:
#   round 1 and 2: the benchmark without torch.compile and peers (bench_fused_add_layer_norm.py
#                  --no-compile --no-peers: the table's method, only ours, eager and the copy);
#                  e_time.py as the labs run it; e_time.py with B_SETTINGS=normal (the benchmark's
#                  warm-ups and repeats); e_time.py with B_FIRST=forward (a forward discarded first
#                  where the labs discard a forward+backward); B_FIRST=none;
#   round 3:       the benchmark as the tables run it (torch.compile and Liger-Kernel too).
# None starts with under 45 s of the limit (580 s; LIMIT=SECONDS for less) left. Results in
# $OUT/res_bt.tgz: `mkdir -p bt/bt && tar xzf res_bt.tgz -C bt/bt --strip-components=1` in runs/, add
# console.txt, then `python3 bt/summary_bt.py bt/bt > bt/summary_bt.txt`. What it would show, set
# before the run: the runs README's `bt/` entry.
. "$(dirname "$0")/../call_lib.sh" bt
lab_start  # limit, gpus, L (call_lib.sh)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab BT wants a GPU"; exit 3; }
ls "$root"/.whl/*.whl > /dev/null 2>&1 || { echo "no .whl/ here: carry .whl"; exit 3; }
declare -A LAB_EDITS=([base]="" [eightb]="bq:eightb")
lab_builds fused_add_layer_norm "base eightb"
install_liger
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active \
  --format=csv -lms 500 > "$R/clocks.csv" 2>&1 &
smi=$!
P=fused_add_layer_norm
# bench_bt BUILD TAG [OPTION...]: the benchmark of L/P_BUILD at the two shapes, in R/bench_BUILD_TAG.*
bench_bt() {
  local b=$1 tag=$2; shift 2
  [ "$(lab_left)" -gt 45 ] || { echo "bench $b $tag not run: $(elapsed) s"; return; }
  (cd "$L/${P}_$b" && CUDA_VISIBLE_DEVICES=0 timeout "$(( $(lab_left) - 5 ))" python3 "benchmarks/bench_$P.py" \
     --dtypes float32 --shapes 4096x16384 8192x8192 "$@" --json "$R/bench_${b}_$tag.json" > "$R/bench_${b}_$tag.log" 2>&1
   echo "bench $b $tag exit $? at $(elapsed) s")
  pack
}
# time_bt BUILD TAG [ASSIGNMENT...]: e_time.py on L/P_BUILD at the two shapes, in R/time_BUILD_TAG.*
time_bt() {
  local b=$1 tag=$2; shift 2
  [ "$(lab_left)" -gt 45 ] || { echo "time $b $tag not run: $(elapsed) s"; return; }
  (cd "$L/${P}_$b" && env CUDA_VISIBLE_DEVICES=0 B_SHAPES=4096x16384,8192x8192 B_DTYPES=float32 "$@" \
     timeout "$(( $(lab_left) - 5 ))" python3 "$G/../e/e_time.py" "$P" "$b" "$R/time_${b}_$tag.json" > "$R/time_${b}_$tag.log" 2>&1
   echo "time $b $tag exit $? at $(elapsed) s")
  pack
}
for round in 1 2; do
  for b in base eightb; do
    bench_bt "$b" "plain$round" --no-compile --no-peers
    time_bt "$b" "lab$round"
    time_bt "$b" "normal$round" B_SETTINGS=normal
    time_bt "$b" "forward$round" B_FIRST=forward
    time_bt "$b" "none$round" B_FIRST=none
  done
done
for b in base eightb; do bench_bt "$b" tables; done
kill "$smi" 2> /dev/null
echo "done at $(elapsed) s"; pack
