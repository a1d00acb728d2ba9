#!/usr/bin/env bash
# Lab J3 (issue 11), one H200: whether LayerNorm's 16-bit forward+backward at 4096 x 16384 takes ~193
# or ~220 us according to where its tensors lie (modes.py), in trials within a process and across
# processes, on the renderings of 9ae7143 (.gpu/j3/layer_norm, from prepare_j.sh). Results tarred into
# $OUT/res_j3.tgz.
. "$(dirname "$0")/../call_lib.sh" j3
P=$X/j3/layer_norm
(cd "$P" && MAX_JOBS=8 FORCE_CUDA=1 timeout 240 python3 setup.py build_ext --inplace > "$R/build.log" 2>&1)
echo "build exit $? at $(elapsed) s"
for run in 1 2 3 4 5 6; do
  for dtype in bfloat16 float16; do
    [ "$(elapsed)" -lt 400 ] || continue
    (cd "$P" && timeout 60 python3 "$G/modes.py" "$dtype" 6 > "$R/modes_${run}_$dtype.txt" 2>&1)
    echo "modes $run $dtype exit $? at $(elapsed) s"; pack
  done
done
echo "done at $(elapsed) s"; pack
