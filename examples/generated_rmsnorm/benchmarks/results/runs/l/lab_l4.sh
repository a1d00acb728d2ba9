#!/usr/bin/env bash
# Lab L4 (issue 11), one H200: lab_l4.py on the LayerNorm and RMSNorm projects of the lab branch
# lab-m-sum-rows (.gpu/m/, rendered by `scaffold gpu-bundle` at .gpu/m/commit.txt; sum_rows_kernel
# reads four float32 columns a thread, LAB_SUM_COLUMNS=1 forces one). Builds both at once, then the
# lab on each in turn. Results tarred into $OUT/res_l4.tgz.
. "$(dirname "$0")/../call_lib.sh" l4 m
for p in layer_norm rmsnorm; do
  (cd "$X/m/$p" && MAX_JOBS=8 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1
   echo "build $p exit $? at $(elapsed) s") &
done
wait
pack
(cd "$X/m/layer_norm" && timeout 200 python3 "$G/lab_l4.py" example_layer_norm layer_norm) > "$R/lab_layer_norm.txt" 2>&1
echo "lab layer_norm exit $? at $(elapsed) s"; cat "$R/lab_layer_norm.txt"; pack
(cd "$X/m/rmsnorm" && timeout 200 python3 "$G/lab_l4.py" generated_rmsnorm rms_norm) > "$R/lab_rms_norm.txt" 2>&1
echo "lab rms_norm exit $? at $(elapsed) s"; cat "$R/lab_rms_norm.txt"; echo "done at $(elapsed) s"; pack
