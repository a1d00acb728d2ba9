#!/usr/bin/env bash
# Lab J4 (issue 11), one H200, after lab J3: modes2.py on the renderings of 9ae7143
# (.gpu/j3/layer_norm): the same inputs in three CUDA graphs of their own, then the first again.
# Results tarred into $OUT/res_j4.tgz.
. "$(dirname "$0")/../call_lib.sh" j4
P=$X/j3/layer_norm
(cd "$P" && MAX_JOBS=8 FORCE_CUDA=1 timeout 200 python3 setup.py build_ext --inplace > "$R/build.log" 2>&1)
echo "build exit $? at $(elapsed) s"
for run in 1 2 3 4; do
  for dtype in bfloat16 float16; do
    [ "$(elapsed)" -lt 250 ] || continue
    (cd "$P" && timeout 40 python3 "$G/modes2.py" "$dtype" 4 > "$R/modes2_${run}_$dtype.txt" 2>&1)
    echo "modes2 $run $dtype exit $? at $(elapsed) s"; pack
  done
done
echo "done at $(elapsed) s"; pack
