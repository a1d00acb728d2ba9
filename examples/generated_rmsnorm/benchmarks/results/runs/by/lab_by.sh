#!/usr/bin/env bash
# Lab BY (issue 11), prepared in session 58 (2026-12-01) for a later session: one call on one H200,
# carrying .gpu (`scaffold gpu-bundle .gpu` of main), timeout_s 600, about 430 s of command:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/by/lab_by.sh
# Labs BT to BX (runs README): the residual-add LayerNorm's float32 forward at 4096 x 16384 took 288.5
# to 290.1 us where the benchmark had timed torch.compile's peer per call first, 321.4 to 324.4
# elsewhere; compiling and running torch.compile's kernels (lab BW) and the most-L1 carveout (lab BX)
# did not do it. The residual-add LayerNorm's project built twice at once: base (main) and shared
# (bx/variant_bx.py: the forward kernel asks for the most shared memory, which lab BX's first call
# failed to build); then on GPU 0:
#   control: the benchmark of base with torch.compile, float32 at 4096 x 16384 alone (lab BV's
#            `compile` step, 289.6 us: is the fast state there today?);
#   by/steps_by.py, each in a process of its own, the benchmark's steps in order with ours' forward
#   timed after each (device time three times, CUDA events once, with where its outputs lay), with
#   the per-call rounds of ours,eager,compile (the benchmark's; then torch.compile's device time and
#   ours' again: B_SWAP=1); the same timed only after the last step (B_TIMED=last: nothing of ours
#   between the benchmark's steps); rounds of ours,compile, compile alone, eager,compile; and
#   ours,eager without the compile step (lab BT's control);
#   then the benchmark without torch.compile in float32 of shared, then of base.
# None starts with under 40 s of the limit (580 s; LIMIT=SECONDS for less) left. Results in
# $OUT/res_by.tgz: `mkdir -p by/by && tar xzf res_by.tgz -C by/by --strip-components=1` in runs/,
# add console.txt. What each outcome would mean: the runs README's `by/` entry.
. "$(dirname "$0")/../call_lib.sh" by
lab_start  # limit, gpus, L (call_lib.sh)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab BY wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="" [shared]="bx:shared")
P=fused_add_layer_norm
lab_builds $P "base shared"
step() { lab_step "$@"; }  # (call_lib.sh's, written out here as the lab ran)
steps_by() {  # steps_by TAG ROUNDS [ASSIGNMENT...]
  local tag=$1 rounds=$2; shift 2
  step "steps $tag" base env B_ROUNDS="$rounds" "$@" sh -c 'python3 "$0" "$1" "$2.json" > "$2.log" 2>&1' \
    "$G/steps_by.py" "$P" "$R/steps_$tag"
}
step control base sh -c 'python3 "benchmarks/bench_$0.py" --dtypes float32 --shapes 4096x16384 --json "$1.json" > "$1.log" 2>&1' \
  "$P" "$R/bench_control"
steps_by bench ours,eager,compile B_SWAP=1
steps_by bench_last ours,eager,compile B_TIMED=last
steps_by ours_compile ours,compile
steps_by compile compile
steps_by eager_compile eager,compile
steps_by ours_eager ours,eager B_STEPS=copy,rounds,again
for b in shared base; do
  step "bench $b" "$b" sh -c 'python3 "benchmarks/bench_$0.py" --dtypes float32 --no-compile --json "$1.json" > "$1.log" 2>&1' \
    "$P" "$R/bench_$b"
done
echo "done at $(elapsed) s"; pack
