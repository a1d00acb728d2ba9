#!/usr/bin/env bash
# Lab AE4 (issue 11), one H200, the session's last 366 s of device time: the residual-add LayerNorm's
# forward at 4096 x 16384 (16-bit: 86-87% of the copy rate in call AB, where the residual-add RMSNorm
# reached 95% and LayerNorm 95%). Its 16-bit rows of 2048 vectors take four vectors a thread on 512
# threads (pick_forward_items' residual-add rule, measured on the residual-add RMSNorm, whose kernel of
# eight vectors takes 100 registers); the residual-add LayerNorm's of eight takes 64 (ptxas). Builds,
# in .gpu/VARIANT/, the fused_add_layer_norm project of: land, branch issue11-backward-shift (tag
# lab-ae-land-ae5c215); r8, land without that rule for the residual-add LayerNorm (tag
# lab-ae-r8-e6404a5: its 16-bit rows of 2048 vectors and float32 of 8192 columns take eight vectors
# on 256 threads). lab_ad.py (../ad/) times each on tame rows, two rounds, the order turned in the
# second. Results in $OUT/res_ae4.tgz.
. "$(dirname "$0")/../call_lib.sh" ae4
for v in land r8; do cp "$X/$v/commit.txt" "$R/commit_$v.txt"; done
limit=200
for v in land r8; do
  (cd "$X/$v/fused_add_layer_norm" && MAX_JOBS=8 FORCE_CUDA=1 timeout 150 python3 setup.py build_ext --inplace \
     > "$R/build_$v.log" 2>&1; echo "build $v exit $? at $(elapsed) s") &
done
wait; pack
time_one() {  # time_one VARIANT ROUND
  if [ $(( limit - $(elapsed) )) -lt 15 ]; then echo "skip $1 $2: $(elapsed) s"; return; fi
  timeout $(( limit - $(elapsed) )) python3 "$G/../ad/lab_ad.py" "$X/$1/fused_add_layer_norm" "$1" "$R/results.jsonl" tame \
    > "$R/lab_$1_$2.log" 2>&1
  echo "lab $1 round $2 exit $? at $(elapsed) s"; pack
}
time_one land 1; time_one r8 1; time_one r8 2; time_one land 2
echo "done at $(elapsed) s"; pack
