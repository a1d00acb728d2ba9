#!/usr/bin/env bash
# Lab AH0 (issue 11), on one H200 with the session's last device time: ah.patch's far-row tests on
# CUDA before a later session's landing call spends its time on them. Carry .gpu_ah: the LayerNorm and
# residual-add LayerNorm projects of `scaffold gpu-bundle` rendered from main at d4fbbd6 with ah.patch
# applied (its commit.txt). Builds both at once, then each project's CUDA tests whose names hold
# "far" (pytest -k "far and cuda"). Results in $OUT/res_ah0.tgz, unpacked into runs/ah/ah0/ with the
# console output as console.txt.
. "$(dirname "$0")/../call_lib.sh" ah0
X=$root/.gpu_ah
[ -f "$X/commit.txt" ] || { echo "no .gpu_ah/ here: carry .gpu_ah"; exit 3; }
cp "$X/commit.txt" "$R/"
for p in layer_norm fused_add_layer_norm; do build "$p" 8 & done
wait; pack
for p in layer_norm fused_add_layer_norm; do
  (cd "$X/$p" && timeout 60 python3 -m pytest tests -q -k "far and cuda" > "$R/far_$p.log" 2>&1)
  echo "far tests $p exit $? at $(elapsed) s: $(tail -n 1 "$R/far_$p.log")"
  pack
done
echo "done at $(elapsed) s"; pack
