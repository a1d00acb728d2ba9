#!/usr/bin/env bash
# Lab BX (issue 11), session 58 (2026-12-01): one call on one H200, carrying .gpu (`scaffold
# gpu-bundle .gpu` of main, 7bfc641), timeout_s 540, about 330 s of command:
#   LIMIT=500 bash examples/generated_rmsnorm/benchmarks/results/runs/bx/lab_bx.sh
# Does the forward's shared-memory carveout explain labs BV and BW (a kernel 10% faster after
# torch.compile's kernels ran, with the same launch)? The residual-add LayerNorm's project built
# three ways at once: base (main), l1 and shared (bx/variant_bx.py: the forward kernel asks for the
# most L1, or the most shared memory); then on GPU 0 each build's benchmark without torch.compile,
# every dtype, the tables' shapes, in that order, then base and l1 again in float32 (drift). None
# starts with under 40 s of the limit (580 s; LIMIT=SECONDS for less) left. Results in
# $OUT/res_bx.tgz: `mkdir -p bx/bx && tar xzf res_bx.tgz -C bx/bx --strip-components=1` in runs/,
# add console.txt. The second call (its first's builds of l1 and shared failed), with 306 s of device
# time left: CALL2=1 BUILDS="base l1" LIMIT=215 (timeout_s 230): l1 then base in float32, then l1
# in every dtype.
. "$(dirname "$0")/../call_lib.sh" bx
lab_start  # limit, gpus, L (call_lib.sh)
limit=${LIMIT:-$limit}
[ "${gpus:-0}" -ge 1 ] 2>/dev/null || { echo "lab BX wants a GPU"; exit 3; }
declare -A LAB_EDITS=([base]="" [l1]="bx:l1" [shared]="bx:shared")
P=fused_add_layer_norm
lab_builds $P "${BUILDS:-base l1 shared}"
bench_bx() {  # bench_bx BUILD TAG [OPTION...]: its benchmark without torch.compile, in R/bench_BUILD_TAG.*
  local b=$1 tag=$2; shift 2
  lab_step "$b bench $tag" "$b" sh -c 'out=$1; shift; python3 "benchmarks/bench_$0.py" --no-compile --json "$out.json" "$@" > "$out.log" 2>&1' \
    "$P" "$R/bench_${b}_$tag" "$@"
}
if [ "${CALL2:-}" ]; then  # the second call (BX2): builds failed in the first (variant_bx.py)
  for b in l1 base; do bench_bx "$b" f32 --dtypes float32; done
  bench_bx l1 all
else
  for b in base l1 shared; do bench_bx "$b" all; done
  for b in base l1; do bench_bx "$b" f32 --dtypes float32; done
fi
echo "done at $(elapsed) s"; pack
