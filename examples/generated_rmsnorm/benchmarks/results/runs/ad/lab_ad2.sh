#!/usr/bin/env bash
# Lab AD2 (issue 11), one H200, after lab AD (lab_ad.sh): three builds of each of the layer_norm,
# fused_add_layer_norm and rmsnorm projects of `scaffold gpu-bundle`, in .gpu/VARIANT/ (commit.txt
# in each): main (a540e22); v1, branch issue11-fast-resum (LayerNorm's origin the median of the row's
# first three elements, and the second look from where the first left the row); v2, branch
# issue11-median-slowlook (the same origin on branch issue11-cuda-overflow, whose second look reads
# the row from global memory an element at a time). lab_ad.py times each (torch.autograd.grad from
# this lab on) on the kinds tame, massive (one far column) and far2 (two); then the v1 projects'
# far-row and overflow tests on CUDA; then, as time allows, a second round in reverse order.
# Results in $OUT/res_ad2.tgz (results.jsonl, build and lab logs, the tests' logs).
. "$(dirname "$0")/../call_lib.sh" ad2
for v in main v1 v2; do cp "$X/$v/commit.txt" "$R/commit_$v.txt"; done
limit=580
projects="layer_norm fused_add_layer_norm rmsnorm"
for v in main v1 v2; do
  for p in $projects; do
    (cd "$X/$v/$p" && MAX_JOBS=2 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace \
       > "$R/build_${v}_$p.log" 2>&1; echo "build $v $p exit $? at $(elapsed) s") &
  done
done
wait; pack
run() {  # run VARIANT PROJECT ROUND
  if [ $(( limit - $(elapsed) )) -lt 50 ]; then echo "skip $1 $2 $3: $(elapsed) s"; return; fi
  timeout $(( limit - $(elapsed) )) python3 "$G/lab_ad.py" "$X/$1/$2" "$1" "$R/results.jsonl" tame,massive,far2 \
    > "$R/lab_${1}_$2_$3.log" 2>&1
  echo "lab $1 $2 round $3 exit $? at $(elapsed) s"; pack
}
for p in $projects; do run main $p 1; run v1 $p 1; run v2 $p 1; done
for p in $projects; do
  (cd "$X/v1/$p" && timeout 100 python3 -m pytest -q tests -k "cuda and (overflow or far)" -p no:cacheprovider \
     > "$R/tests_v1_$p.log" 2>&1; echo "tests v1 $p exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_v1_$p.log")")
done
pack
for p in $projects; do run v2 $p 2; run v1 $p 2; run main $p 2; done
echo "done at $(elapsed) s"; pack
