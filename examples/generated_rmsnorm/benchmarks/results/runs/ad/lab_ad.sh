#!/usr/bin/env bash
# Lab AD (issue 11), one H200: LayerNorm's CUDA backward summed a rare row (a row whose first element
# lies far from its mean: about 1 in 16,000 random rows; every row where an LLM's "massive
# activation" sits in the first channel) a second time from global memory, an element at a time
# (far_row_sums; on branch issue11-cuda-overflow row_sums_again). Branch issue11-fast-resum sums it
# where the first look left it (thread_sums). This lab times both, in device time, with lab_ad.py:
# .gpu/main/ holds `scaffold gpu-bundle` of main (a540e22), .gpu/new/ of the branch (commit.txt in each),
# their layer_norm, rmsnorm and fused_add_layer_norm projects, built here. Two rounds, main and new
# alternating (new first in the second), then the branch's overflow and far-row tests on CUDA.
# Results in $OUT/res_ad.tgz (ad/results.jsonl, the build logs, the tests' logs, console.txt).
. "$(dirname "$0")/../call_lib.sh" ad
cp "$X/main/commit.txt" "$R/commit_main.txt"; cp "$X/new/commit.txt" "$R/commit_new.txt"
limit=580
projects="layer_norm rmsnorm fused_add_layer_norm"
for v in main new; do
  for p in $projects; do
    (cd "$X/$v/$p" && MAX_JOBS=2 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace \
       > "$R/build_${v}_$p.log" 2>&1; echo "build $v $p exit $? at $(elapsed) s") &
  done
done
wait; pack
run() {  # run VARIANT PROJECT
  if [ $(( limit - $(elapsed) )) -lt 60 ]; then echo "skip $1 $2: $(elapsed) s"; return; fi
  timeout $(( limit - $(elapsed) )) python3 "$G/lab_ad.py" "$X/$1/$2" "$1" "$R/results.jsonl" > "$R/lab_${1}_$2_$3.log" 2>&1
  echo "lab $1 $2 round $3 exit $? at $(elapsed) s"; pack
}
for p in $projects; do run main $p 1; run new $p 1; done
for p in layer_norm rmsnorm; do
  (cd "$X/new/$p" && timeout 120 python3 -m pytest -q -x tests -k "overflow or far" -p no:cacheprovider \
     > "$R/tests_new_$p.log" 2>&1; echo "tests new $p exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_new_$p.log")")
done
pack
for p in $projects; do run new $p 2; run main $p 2; done
echo "done at $(elapsed) s"; pack
