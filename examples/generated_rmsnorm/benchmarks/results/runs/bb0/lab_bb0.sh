#!/usr/bin/env bash
# Lab BB0 (issue 11, prepared in session 48, 2026-11-30, for a later GPU session): why the
# residual-add norms' forward trails its peers by 3 to 7% at 8192 x 8192 and 4096 x 16384 (call BA's
# tables: the residual-add RMSNorm's float32 forward at 8192 x 8192 274.7 us against Liger-Kernel's
# 261.0, 94.1% of the copy rate; bfloat16 at 4096 x 16384 140.5 against 133.1; the residual-add
# LayerNorm's float32 at 8192 x 8192 291.9 against torch.compile's 274.9). On two H200s
# (nvidia-h200-x2), carrying .gpu (no edits) and .whl (Liger-Kernel's wheel): the two residual-add
# projects built; Nsight Compute (ncu --clock-control none, the sections lab L3 took) on the one
# forward call that ncu_forward.py brackets, of ours, Liger-Kernel's and torch.compile's, at those
# cells: which kernel runs, its launch, duration, DRAM throughput, registers, occupancy (theoretical
# and achieved), waves and cycles a warp instruction. GPU 0 the residual-add RMSNorm (three cells),
# GPU 1 the residual-add LayerNorm, the residual-add RMSNorm's bfloat16 8192 x 8192 and RMSNorm's
# float32 4096 x 1024 forward (Liger-Kernel x1.07 there). Lab L3 took about 12 s a case; torch.compile
# compiles in its cases too. Each case at most 120 s, none started with under 25 s left. Limit 400 s. Results in $OUT/res_bb0.tgz: unpack into bb0/bb0/, then, in runs/,
# `python3 l/ncu_summary.py bb0/bb0/*.csv > bb0/ncu_bb0.txt`.
. "$(dirname "$0")/../call_lib.sh" bb0
lab_start  # limit, gpus, L (call_lib.sh)
limit=400
[ "$gpus" -gt 1 ] || { echo "lab BB0 wants two GPUs"; exit 3; }
ls "$root"/.whl/*.whl > /dev/null 2>&1 || { echo "no .whl/ here: carry .whl"; exit 3; }
install_liger
for p in fused_add_rms_norm fused_add_layer_norm rmsnorm; do build "$p" 8 & done
wait; pack
ncu --version > "$R/ncu_version.txt" 2>&1
declare -A PACKAGE=([fused_add_rms_norm]=example_fused_add_rms_norm [fused_add_layer_norm]=example_fused_add_layer_norm
                    [rmsnorm]=generated_rmsnorm)
case_() {  # case_ GPU PROJECT IMPL DTYPE ROWS COLS
  local name="${OP[$2]}_$3_$4_$5x$6" left=$(( $(lab_left) - 5 ))
  [ "$left" -gt 20 ] || { echo "case $name not run: $(elapsed) s"; return; }
  [ "$left" -gt 120 ] && left=120
  (cd "$X/$2" && CUDA_VISIBLE_DEVICES=$1 PYTHONPATH="src:${PYTHONPATH:-}" timeout "$left" ncu --clock-control none \
     --profile-from-start off --section SpeedOfLight --section Occupancy --section LaunchStats \
     --section WarpStateStats --section MemoryWorkloadAnalysis --csv --page details \
     python3 "$G/ncu_forward.py" "${PACKAGE[$2]}" "${OP[$2]}" "$3" "$4" "$5" "$6" > "$R/$name.csv" 2> "$R/$name.err")
  echo "case $name exit $? at $(elapsed) s"; pack
}
(for cell in "float32 8192 8192" "bfloat16 4096 16384" "float32 4096 16384"; do
   for impl in ours liger compile; do case_ 0 fused_add_rms_norm "$impl" $cell; done
 done) &
(for cell in "float32 8192 8192" "bfloat16 4096 16384"; do
   for impl in ours compile; do case_ 1 fused_add_layer_norm "$impl" $cell; done
 done
 for impl in ours liger compile; do case_ 1 fused_add_rms_norm "$impl" bfloat16 8192 8192; done
 for impl in ours liger; do case_ 1 rmsnorm "$impl" float32 4096 1024; done) &
wait
echo "done at $(elapsed) s"; pack
