#!/usr/bin/env bash
# Lab AD3 (issue 11), one H200, after lab AD2 (lab_ad2.sh, whose LayerNorm and RMSNorm runs failed in
# lab_ad.py's error check, which then read .grad after torch.autograd.grad). Builds of the
# layer_norm, fused_add_layer_norm and rmsnorm projects of `scaffold gpu-bundle`, in .gpu/VARIANT/
# (commit.txt in each): main (a540e22); m1, main with LayerNorm's origin the median of the row's first
# three elements (branch issue11-median-only); v1, m1 with branch issue11-fast-resum's rare rows (the
# three-look loop inlined, the second look from where the first left the row); v3, v2 with the rare
# rows in a function not inlined (branch issue11-rare-rows). lab_ad.py times each on the kinds tame,
# massive and far2; then v3's far-row and overflow tests on CUDA; then a second round in reverse order
# as time allows. Results in $OUT/res_ad3.tgz.
. "$(dirname "$0")/../call_lib.sh" ad3
for v in main m1 v1 v3; do cp "$X/$v/commit.txt" "$R/commit_$v.txt"; done
limit=580
projects="layer_norm fused_add_layer_norm rmsnorm"
for v in main m1 v1 v3; do
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
for p in $projects; do run main $p 1; run m1 $p 1; run v1 $p 1; run v3 $p 1; done
for p in $projects; do
  (cd "$X/v3/$p" && timeout 100 python3 -m pytest -q tests -k "cuda and (overflow or far)" -p no:cacheprovider \
     > "$R/tests_v3_$p.log" 2>&1; echo "tests v3 $p exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_v3_$p.log")")
done
pack
for p in $projects; do run v3 $p 2; run v1 $p 2; run m1 $p 2; run main $p 2; done
echo "done at $(elapsed) s"; pack
