#!/usr/bin/env bash
# Landing call AC, part one (issue 11), on one H200 (nvidia-h200): what call AB's phases bench, a and b
# ran on two GPUs (../ab/call_ab.sh), for the renderings of `scaffold gpu-bundle .gpu` at a branch's
# head (.gpu/commit.txt), on one GPU, for sessions lent no machine of two. Six phases, each a call of
# its own, in any order and any session, all of the same .gpu (land_ac.sh checks that they ran one
# commit). Carry .gpu (and .whl, Liger-Kernel, for b1 and b2) with each call; a call that finds no
# .gpu/ stops and says so.
#   bash call_ac1.sh s1   the RMSNorm example's suite (gpu_suite.py: build, tests, compute-sanitizer)
#   bash call_ac1.sh s2   LayerNorm's suite
#   bash call_ac1.sh s3   the residual-add RMSNorm's suite
#   bash call_ac1.sh s4   the residual-add LayerNorm's suite
#   bash call_ac1.sh b1   LayerNorm's and RMSNorm's benchmarks (building them first)
#   bash call_ac1.sh b2   the residual-add RMSNorm's and LayerNorm's benchmarks (building them first)
# One thing at a time on the GPU (suites beside one another had compute-sanitizer abort as a process
# ended: calls G3-2, N and AB). A suite takes about 270 to 400 s (its build about 100, whose time its
# record keeps), a phase of benchmarks about 330. With one GPU the suites skip their
# second-device and DDP cases: call_ac2.sh runs every suite again on two GPUs, and land_ac.sh lands
# both parts. Results in $OUT/res_acPHASE.tgz, unpacked into runs/ac/PHASE/ with each call's console
# output as console.txt.
phase=$1
. "$(dirname "$0")/../call_lib.sh" "ac$phase"
limit=580
[ -f "$X/commit.txt" ] || { echo "no .gpu/ here: make this call carrying .gpu"; exit 3; }
benches() {  # benches PROJECT...: each built at once, then its benchmark, one after another
  local p
  ls "$root"/.whl/*.whl > /dev/null 2>&1 || { echo "no .whl/ here: make this call carrying .whl"; exit 3; }
  for p in "$@"; do build "$p" 8 & done
  wait; pack
  install_liger
  for p in "$@"; do bench "$p"; pack; done
}
case $phase in
  s1) suite rmsnorm ;;
  s2) suite layer_norm ;;
  s3) suite fused_add_rms_norm ;;
  s4) suite fused_add_layer_norm ;;
  b1) benches layer_norm rmsnorm ;;
  b2) benches fused_add_rms_norm fused_add_layer_norm ;;
  *) echo "usage: call_ac1.sh s1|s2|s3|s4|b1|b2"; exit 2 ;;
esac
echo "done at $(elapsed) s"; pack
