#!/usr/bin/env bash
# Lab AD4 (issue 11), one H200, after lab AD3 (lab_ad3.sh): the median shift in the CUDA backward only
# (AD3's m1 took it in the forward and the CPU loops too, and the float16 LayerNorm forward lost 11 to
# 13% at 8192 x 8192 and 4096 x 16384). Builds, in .gpu/VARIANT/ (commit.txt in each), of the
# layer_norm and fused_add_layer_norm projects of `scaffold gpu-bundle` of: main (a540e22); m1b, main
# with the backward's shift the median of the row's first three elements (backward_shift; branch
# issue11-median-backward); v2b, branch issue11-cuda-overflow (the rare rows' three-look loop, its
# second look an element at a time from global memory) with backward_shift (branch
# issue11-overflow-median-backward); v4, v2b with that element loop unrolled by four (branch
# issue11-overflow-median-unroll); and the rmsnorm project of main and v2b. lab_ad.py times each on
# the kinds tame, massive and far2, two rounds (the second in reverse order), then v2b's and v4's
# far-row and overflow tests on CUDA. Results in $OUT/res_ad4.tgz.
. "$(dirname "$0")/../call_lib.sh" ad4
for v in main m1b v2b v4; do cp "$X/$v/commit.txt" "$R/commit_$v.txt"; done
limit=470
build_one() {  # build_one VARIANT PROJECT
  (cd "$X/$1/$2" && MAX_JOBS=2 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace \
     > "$R/build_${1}_$2.log" 2>&1; echo "build $1 $2 exit $? at $(elapsed) s")
}
for v in main m1b v2b v4; do for p in layer_norm fused_add_layer_norm; do build_one $v $p & done; done
build_one main rmsnorm & build_one v2b rmsnorm &
wait; pack
run() {  # run VARIANT PROJECT ROUND
  if [ $(( limit - $(elapsed) )) -lt 30 ]; then echo "skip $1 $2 $3: $(elapsed) s"; return; fi
  timeout $(( limit - $(elapsed) )) python3 "$G/lab_ad.py" "$X/$1/$2" "$1" "$R/results.jsonl" tame,massive,far2 \
    > "$R/lab_${1}_$2_$3.log" 2>&1
  echo "lab $1 $2 round $3 exit $? at $(elapsed) s"; pack
}
for p in layer_norm fused_add_layer_norm; do run main $p 1; run m1b $p 1; run v2b $p 1; run v4 $p 1; done
run main rmsnorm 1; run v2b rmsnorm 1
for v in v2b v4; do
  for p in layer_norm fused_add_layer_norm; do
    (cd "$X/$v/$p" && timeout 60 python3 -m pytest -q tests -k "cuda and (overflow or far)" -p no:cacheprovider \
       > "$R/tests_${v}_$p.log" 2>&1; echo "tests $v $p exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_${v}_$p.log")")
  done
done
pack
for p in layer_norm fused_add_layer_norm; do run v4 $p 2; run v2b $p 2; run m1b $p 2; run main $p 2; done
run v2b rmsnorm 2; run main rmsnorm 2
echo "done at $(elapsed) s"; pack
