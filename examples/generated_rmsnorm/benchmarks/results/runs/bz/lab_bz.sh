#!/usr/bin/env bash
# Lab BZ (issue 11), session 59 (2026-12-01): one call on one H200, carrying .gpu (`scaffold gpu-bundle
# .gpu` of main), timeout_s 600, about 420 s of command:
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bz/lab_bz.sh
# Lab BY (runs/by/): our residual-add LayerNorm's float32 forward at 4096 x 16384 is slow (about
# 321 us of device time) in a process until torch.compile's forward has run many times on the same
# tensors, fast (about 288 us) after. The residual-add LayerNorm's project built five times at once:
# base (main) and bz/variant_bz.py's wlast, stcs, ldcs and all (cache hints on the forward's loads and
# stores); then on GPU 0:
#   probes of base (bz/probe_bz.py), each in a process of its own: Triton kernels that read buffers
#   with and without evict_last, then ours timed (B_PROBE=triton); torch.compile's forward called 1,
#   10, 100 and 1000 times, ours timed after each, with Inductor's kernel source (B_PROBE=compile);
#   the benchmark without torch.compile of each build, every dtype (base first, base again last).
# None starts with under 40 s of the limit (580 s; LIMIT=SECONDS for less) left. Results in
# $OUT/res_bz.tgz: `mkdir -p bz/bz && tar xzf res_bz.tgz -C bz/bz --strip-components=1` in runs/,
# add console.txt. What each outcome would mean: the runs README's `bz/` entry.
. "$(dirname "$0")/../call_lib.sh" bz
lab_start  # limit, gpus, L (call_lib.sh)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab BZ wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="" [wlast]="bz:wlast" [stcs]="bz:stcs" [ldcs]="bz:ldcs" [all]="bz:all")
P=fused_add_layer_norm
lab_builds $P "base wlast stcs ldcs all"
step() { lab_step "$@"; }  # (call_lib.sh's, written out here as the lab ran)
step "probe triton" base env B_PROBE=triton sh -c 'python3 "$0" "$1" "$2.json" > "$2.log" 2>&1' \
  "$G/probe_bz.py" "$P" "$R/probe_triton"
step "probe compile" base env B_PROBE=compile TORCH_LOGS=output_code sh -c 'python3 "$0" "$1" "$2.json" > "$2.log" 2>&1' \
  "$G/probe_bz.py" "$P" "$R/probe_compile"
for b in base wlast stcs ldcs all base; do
  tag=$b; [ -f "$R/bench_$b.log" ] && tag=${b}_again
  step "bench $tag" "$b" sh -c 'python3 "benchmarks/bench_$0.py" --no-compile --json "$1.json" > "$1.log" 2>&1' \
    "$P" "$R/bench_$tag"
done
echo "done at $(elapsed) s"; pack
