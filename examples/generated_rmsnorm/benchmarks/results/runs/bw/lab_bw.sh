#!/usr/bin/env bash
# Lab BW (issue 11), session 58 (2026-12-01): one call on one H200, carrying .gpu (`scaffold
# gpu-bundle .gpu` of main), timeout_s 600, about 250 s of command:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bw/lab_bw.sh
# Lab BV: the residual-add LayerNorm's float32 forward at 4096 x 16384 took 321.7 to 323.7 us in every
# process without torch.compile, wherever its tensors lay, and 289.6 us in a benchmark with
# torch.compile. The residual-add LayerNorm's project (main) built; then on GPU 0
# bw/after_compile_bw.py twice, in two processes: stepwise (import, a Triton kernel, the compile of
# the reference, nothing more), then the compile alone (STEPS=compile); each step's device time and
# the forward's kernels with their launch. Then the benchmark of float32 4096 x 16384 alone without
# torch.compile, against which both stand. None starts with under 40 s of the limit (580 s;
# LIMIT=SECONDS for less) left. Results in $OUT/res_bw.tgz: `mkdir -p bw/bw && tar xzf res_bw.tgz -C
# bw/bw --strip-components=1` in runs/, add console.txt.
. "$(dirname "$0")/../call_lib.sh" bw
lab_start  # limit, gpus, L (call_lib.sh)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab BW wants a GPU"; exit 3; }
P=fused_add_layer_norm
cp -r "$X/$P" "$L/$P"
(cd "$L/$P" && MAX_JOBS=16 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$P.log" 2>&1
 echo "build $P exit $? at $(elapsed) s")
pack
step() {  # step NAME COMMAND...: in L/P on GPU 0; none started with 40 s or less left
  local name=$1; shift
  [ "$(lab_left)" -gt 40 ] || { echo "$name not run: $(elapsed) s"; return; }
  (cd "$L/$P" && env CUDA_VISIBLE_DEVICES=0 timeout "$(( $(lab_left) - 5 ))" "$@")
  echo "$name exit $? at $(elapsed) s"
  pack
}
step stepwise sh -c 'python3 "$0" "$1" "$2.json" > "$2.log" 2>&1' "$G/after_compile_bw.py" "$P" "$R/stepwise"
step compile_only env STEPS=compile sh -c 'python3 "$0" "$1" "$2.json" > "$2.log" 2>&1' "$G/after_compile_bw.py" "$P" "$R/compile_only"
step bench_alone sh -c 'python3 "benchmarks/bench_$0.py" --dtypes float32 --shapes 4096x16384 --no-compile --json "$1.json" > "$1.log" 2>&1' "$P" "$R/bench_alone"
echo "done at $(elapsed) s"; pack
