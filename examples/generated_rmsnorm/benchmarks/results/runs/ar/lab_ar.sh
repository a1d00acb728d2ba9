#!/usr/bin/env bash
# Lab AR (issue 11), session 42 (2026-11-29): one call on two H200s of one host (nvidia-h200-x2),
# carrying .gpu (`scaffold gpu-bundle .gpu` of main after call AP), in what device time the session had
# left after call AP (389 s, so a limit of 300 s here):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/ar/lab_ar.sh
# Builds base (main) and pf (variant_ar.py: the forward's parameter lines prefetched into L1 where it
# reads them after the row's reduction) of LayerNorm's and RMSNorm's projects, all at once; the CUDA
# tests of the forward of each pf build (one GPU each); then the device time of forward and
# forward+backward (../e/e_time.py) of base, pf, base and pf again, the 16-bit dtypes on one GPU and
# float32 on the other, at 4096 x 1024, 16384 x 1024, 32768 x 4096, 8192 x 8192 and 4096 x 16384.
# Results in $OUT/res_ar.tgz: unpack with `mkdir -p ar && tar xzf res_ar.tgz -C ar
# --strip-components=1` in runs/ar/, add console.txt, then `python3 summary_ar.py > summary.txt`.
. "$(dirname "$0")/../call_lib.sh" ar
lab_start  # limit, gpus, L (call_lib.sh)
limit=300
declare -A LAB_EDITS=([base]="" [pf]="ar:pf")
PROJECTS="layer_norm rmsnorm"
lab_builds "$PROJECTS" "base pf"
K="not cpu and (forward_and_backward_match_reference or cuda_shapes or large_shapes or forward_vectors or misaligned or far or eps_is_used or cuda_graph)"
check() {  # check BUILD GPU
  local l=$(( $(lab_left) - 120 )); [ "$l" -gt 60 ] && l=60
  [ "$l" -gt 10 ] || { echo "tests $1 not run: $(elapsed) s"; return; }
  (cd "$L/$1" && CUDA_VISIBLE_DEVICES=$2 timeout "$l" python3 -m pytest tests -q -p no:cacheprovider -k "$K" > "$R/tests_$1.log" 2>&1)
  echo "tests $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_$1.log")"
}
check layer_norm_pf 0 & check rmsnorm_pf 1 & wait; pack
SHAPES=4096x1024,16384x1024,32768x4096,8192x8192,4096x16384
if [ "$gpus" -gt 1 ]; then
  lab_time_runs 0 16bit bfloat16,float16 "$SHAPES" "$PROJECTS" "base pf base pf" &
  lab_time_runs 1 float32 float32 "$SHAPES" "$PROJECTS" "base pf base pf" & wait
else
  lab_time_runs 0 all bfloat16,float16,float32 "$SHAPES" "$PROJECTS" "base pf base pf"
fi
echo "done at $(elapsed) s"; pack
