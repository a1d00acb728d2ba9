#!/usr/bin/env bash
# Lab L3 (issue 11), one H200: Nsight Compute (ncu --clock-control none) on the forward and backward
# kernels of one forward+backward call (the fourth; ncu_case.py) of branch issue11-staged-sums' LayerNorm
# and RMSNorm projects (.gpu/, at .gpu/commit.txt), at the cells where LayerNorm's 16-bit
# forward+backward trails (1024x65536, 8192x4095, 4096x16384) and their float32 and RMSNorm
# counterparts: which kernel runs (its template arguments, grid, block, cluster, shared memory), its
# duration, DRAM throughput, occupancy and warp stalls. Results tarred into $OUT/res_l3.tgz.
. "$(dirname "$0")/../call_lib.sh" l3
built() { ls "$X/$1"/src/*/_C*.so > /dev/null 2>&1; }
for p in layer_norm rmsnorm; do
  (built $p || (cd "$X/$p" && MAX_JOBS=8 FORCE_CUDA=1 timeout 300 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1)
   echo "build $p exit $? at $(elapsed) s") &
done
wait
ncu --version > "$R/ncu_version.txt" 2>&1
case_() {  # case_ PROJECT PACKAGE OP DTYPE ROWS COLS
  local name="$3_$4_$5x$6"
  (cd "$X/$1" && PYTHONPATH=src timeout 120 ncu --clock-control none -k regex:'forward|backward_kernel|sum_rows' \
     --launch-skip 9 --launch-count 3 --section SpeedOfLight --section Occupancy --section LaunchStats \
     --section WarpStateStats --section MemoryWorkloadAnalysis --csv --page details \
     python3 "$G/ncu_case.py" "$2" "$3" "$4" "$5" "$6" > "$R/$name.csv" 2> "$R/$name.err")
  echo "case $name exit $? at $(elapsed) s"; pack
}
for shape in "1024 65536" "8192 4095" "4096 16384"; do
  for dtype in bfloat16 float32; do
    case_ layer_norm example_layer_norm layer_norm $dtype $shape
  done
  case_ rmsnorm generated_rmsnorm rms_norm bfloat16 $shape
done
echo "done at $(elapsed) s"; pack
