#!/usr/bin/env bash
# Lab AB-O (issue 11), one H200: test_overflow_lab.py in the LayerNorm and RMSNorm projects of
# `scaffold gpu-bundle .gpu` (carried), built with call_lib.sh's build. Results in $OUT/res_ab_o.tgz.
. "$(dirname "$0")/../../call_lib.sh" ab_o
for p in layer_norm:layer_norm rmsnorm:rms_norm; do
  IFS=: read -r dir op <<< "$p"
  sed "s/^OPERATOR = .*/OPERATOR = \"$op\"/" "$G/test_overflow_lab.py" > "$X/$dir/tests/test_overflow_lab.py"
done
build layer_norm 8 & build rmsnorm 8 & wait
for dir in layer_norm rmsnorm; do
  (cd "$X/$dir" && timeout 120 python3 -m pytest -p no:cacheprovider -rA tests/test_overflow_lab.py > "$R/$dir.log" 2>&1
   echo "$dir exit $? at $(elapsed) s: $(tail -n 1 "$R/$dir.log")")
done
pack
