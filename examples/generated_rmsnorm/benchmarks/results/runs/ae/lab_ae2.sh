#!/usr/bin/env bash
# Lab AE2 (issue 11), one H200, after lab AE (lab_ae.sh): fg4, branch lab-ae-fg4 (fg's mend of a far
# origin only in forward_rows' rows of several passes, !kCached; the kernels that hold the row in
# registers compile as bs's), against bs (branch issue11-backward-shift), in .gpu/VARIANT/
# (commit.txt in each): the layer_norm and fused_add_layer_norm projects of `scaffold gpu-bundle`.
# lab_ad.py (../ad/) times each on the kinds tame and massive, two rounds, the order turned in the
# second; far_margin.py draws the far-row test's inputs 20 times a shape for fg4; last, fg4's CUDA
# tests in both projects. Results in $OUT/res_ae2.tgz.
. "$(dirname "$0")/../call_lib.sh" ae2
for v in bs fg4; do cp "$X/$v/commit.txt" "$R/commit_$v.txt"; done
limit=570
build_one() {  # build_one VARIANT PROJECT
  (cd "$X/$1/$2" && MAX_JOBS=4 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace \
     > "$R/build_${1}_$2.log" 2>&1; echo "build $1 $2 exit $? at $(elapsed) s")
}
for v in bs fg4; do for p in layer_norm fused_add_layer_norm; do build_one $v $p & done; done
wait; pack
time_one() {  # time_one VARIANT PROJECT ROUND
  if [ $(( limit - $(elapsed) )) -lt 30 ]; then echo "skip $1 $2 $3: $(elapsed) s"; return; fi
  timeout $(( limit - $(elapsed) )) python3 "$G/../ad/lab_ad.py" "$X/$1/$2" "$1" "$R/results.jsonl" tame,massive \
    > "$R/lab_${1}_$2_$3.log" 2>&1
  echo "lab $1 $2 round $3 exit $? at $(elapsed) s"; pack
}
for p in layer_norm fused_add_layer_norm; do time_one bs $p 1; time_one fg4 $p 1; done
for p in layer_norm fused_add_layer_norm; do
  timeout 60 python3 "$G/far_margin.py" "$X/fg4/$p" fg4 "$R/margin.jsonl" 20 > "$R/margin_fg4_$p.log" 2>&1
  echo "margin fg4 $p exit $? at $(elapsed) s"; pack
done
for p in layer_norm fused_add_layer_norm; do time_one fg4 $p 2; time_one bs $p 2; done
for p in layer_norm fused_add_layer_norm; do
  if [ $(( limit - $(elapsed) )) -lt 40 ]; then echo "skip tests fg4 $p: $(elapsed) s"; continue; fi
  (cd "$X/fg4/$p" && timeout $(( limit - $(elapsed) )) python3 -m pytest -q tests -k cuda -p no:cacheprovider \
     > "$R/tests_fg4_$p.log" 2>&1; echo "tests fg4 $p exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_fg4_$p.log")")
done
echo "done at $(elapsed) s"; pack
