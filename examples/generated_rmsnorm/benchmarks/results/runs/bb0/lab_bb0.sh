#!/usr/bin/env bash
# Lab BB0 (issue 11, prepared in session 48, 2026-11-30, for a later GPU session): why our forward
# trails a peer's at some of the issue's cells (call BA's tables, device time): the residual-add
# RMSNorm's float32 forward at 8192 x 8192 274.7 us against Liger-Kernel's 261.0 (94.1% of the copy
# rate), its bfloat16 at 4096 x 16384 140.5 against 133.0, its float32 at 8192 x 4095 142.4 against
# 133.7; the residual-add LayerNorm's float32 at 8192 x 8192 291.9 against torch.compile's 274.9;
# LayerNorm's bfloat16 at 4096 x 1024 7.44 against torch.compile's 6.57, its float32 there 11.28
# against Liger-Kernel's 10.45. On two H200s (nvidia-h200-x2), carrying .gpu (no edits) and .whl
# (Liger-Kernel's wheel): the three projects built; Nsight Compute (ncu --clock-control none) on the
# three forward calls that ncu_forward.py brackets, of ours and of the peer that beats it (and
# torch.compile's for the residual-add RMSNorm too), each into a report (kept on the machine), from
# which the details page (the sections lab L3 took, and SchedulerStats) and the raw page (every
# metric collected: DRAM bytes, each stall reason's warps an issue) are written as CSV. GPU 0 the
# residual-add RMSNorm, GPU 1 the residual-add LayerNorm and LayerNorm; the first cells first. Each
# case at most 120 s, none started with under 25 s left. Limit 420 s (call it with timeout_s 450).
# Results in $OUT/res_bb0.tgz: `mkdir -p bb0/bb0 && tar xzf res_bb0.tgz -C bb0/bb0
# --strip-components=1`, then, in runs/, `python3 l/ncu_summary.py bb0/bb0/*_details.csv >
# bb0/ncu_bb0.txt` and `python3 bb0/stalls_bb0.py bb0/bb0/*_raw.csv > bb0/stalls_bb0.txt`.
#   SHORT=1 bash lab_bb0.sh  (session 49, for the device time a landing leaves: limit 190 s, call it
#   with timeout_s 210): only the residual-add norms' projects, built (within the limit) while GPU 0
#   profiles Liger-Kernel's fused add + RMSNorm, which needs no build; then, on GPU 0, ours and
#   torch.compile's residual-add RMSNorm, and on GPU 1 ours and torch.compile's residual-add
#   LayerNorm, the first cells first. Results in $OUT/res_bb0s.tgz, unpacked into bb0/bb0s and read
#   as above (ncu_bb0s.txt, stalls_bb0s.txt).
#   REST=1 bash lab_bb0.sh  (session 49, after the SHORT run): the cases SHORT left, on the residual-add
#   RMSNorm's and LayerNorm's projects (limit 300 s, timeout_s 330); results in $OUT/res_bb0r.tgz,
#   unpacked into bb0/bb0r and read as above (ncu_bb0r.txt, stalls_bb0r.txt).
short=; [ "${SHORT:-0}" = 1 ] && short=1
rest=; [ "${REST:-0}" = 1 ] && [ -z "$short" ] && rest=1
. "$(dirname "$0")/../call_lib.sh" "bb0${short:+s}${rest:+r}"
lab_start  # limit, gpus, L (call_lib.sh)
limit=420; [ -n "$short" ] && limit=190; [ -n "$rest" ] && limit=300
[ "$gpus" -gt 1 ] || { echo "lab BB0 wants two GPUs"; exit 3; }
ls "$root"/.whl/*.whl > /dev/null 2>&1 || { echo "no .whl/ here: carry .whl"; exit 3; }
install_liger
ncu --version > "$R/ncu_version.txt" 2>&1
if [ -n "$short" ]; then projects="fused_add_rms_norm fused_add_layer_norm"; jobs=16
elif [ -n "$rest" ]; then projects="fused_add_rms_norm layer_norm"; jobs=16
else projects="fused_add_rms_norm fused_add_layer_norm layer_norm"; jobs=10; fi
bound=300; [ -n "$short$rest" ] && bound=$(( limit - $(elapsed) - 30 ))  # (SHORT: the cases need the builds)
for p in $projects; do build "$p" $jobs $bound & done
[ -n "$short$rest" ] || { wait; pack; }
declare -A PACKAGE=([fused_add_rms_norm]=example_fused_add_rms_norm [fused_add_layer_norm]=example_fused_add_layer_norm
                    [layer_norm]=example_layer_norm)
reports=/tmp/bb0_reports; rm -rf "$reports"; mkdir -p "$reports"
case_() {  # case_ GPU PROJECT IMPL DTYPE ROWS COLS
  local name="${OP[$2]}_$3_$4_$5x$6" left=$(( $(lab_left) - 5 ))
  [ "$left" -gt 20 ] || { echo "case $name not run: $(elapsed) s"; return; }
  [ "$left" -gt 120 ] && left=120
  (cd "$X/$2" && CUDA_VISIBLE_DEVICES=$1 PYTHONPATH="src:${PYTHONPATH:-}" TORCHINDUCTOR_COMPILE_THREADS=1 \
     timeout "$left" ncu --clock-control none --profile-from-start off -o "$reports/$name" \
     --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
     --section MemoryWorkloadAnalysis --section SchedulerStats \
     python3 "$G/ncu_forward.py" "${PACKAGE[$2]}" "${OP[$2]}" "$3" "$4" "$5" "$6" > "$R/$name.log" 2>&1
   echo "case $name exit $? at $(elapsed) s")
  for page in details raw; do
    ncu --import "$reports/$name.ncu-rep" --csv --page $page > "$R/${name}_$page.csv" 2>> "$R/$name.log"
  done
  pack
}
if [ -n "$short" ]; then
  case_ 0 fused_add_rms_norm liger float32 8192 8192
  case_ 0 fused_add_rms_norm liger bfloat16 4096 16384
  wait; pack  # the builds
  (case_ 0 fused_add_rms_norm ours float32 8192 8192
   case_ 0 fused_add_rms_norm ours bfloat16 4096 16384
   case_ 0 fused_add_rms_norm compile float32 8192 8192) &
  (case_ 1 fused_add_layer_norm ours float32 8192 8192
   case_ 1 fused_add_layer_norm compile float32 8192 8192
   case_ 1 fused_add_layer_norm ours bfloat16 4096 16384
   case_ 1 fused_add_layer_norm compile bfloat16 4096 16384) &
  wait
elif [ -n "$rest" ]; then
  (case_ 0 fused_add_rms_norm liger float32 8192 4095
   case_ 0 fused_add_rms_norm liger float32 4096 16384) &
  case_ 1 layer_norm liger float32 4096 1024
  wait; pack  # the builds and GPU 0's Liger-Kernel cases
  (case_ 0 fused_add_rms_norm ours float32 8192 4095
   case_ 0 fused_add_rms_norm ours float32 4096 16384
   case_ 0 fused_add_rms_norm compile bfloat16 4096 16384) &
  (case_ 1 layer_norm ours float32 4096 1024
   case_ 1 layer_norm ours bfloat16 4096 1024
   case_ 1 layer_norm compile bfloat16 4096 1024) &
  wait
else
(case_ 0 fused_add_rms_norm ours float32 8192 8192
 case_ 0 fused_add_rms_norm liger float32 8192 8192
 case_ 0 fused_add_rms_norm ours bfloat16 4096 16384
 case_ 0 fused_add_rms_norm liger bfloat16 4096 16384
 case_ 0 fused_add_rms_norm compile float32 8192 8192
 case_ 0 fused_add_rms_norm ours float32 8192 4095
 case_ 0 fused_add_rms_norm liger float32 8192 4095
 case_ 0 fused_add_rms_norm compile bfloat16 4096 16384
 case_ 0 fused_add_rms_norm ours float32 4096 16384
 case_ 0 fused_add_rms_norm liger float32 4096 16384) &
(case_ 1 fused_add_layer_norm ours float32 8192 8192
 case_ 1 fused_add_layer_norm compile float32 8192 8192
 case_ 1 layer_norm ours bfloat16 4096 1024
 case_ 1 layer_norm compile bfloat16 4096 1024
 case_ 1 layer_norm ours float32 4096 1024
 case_ 1 layer_norm liger float32 4096 1024
 case_ 1 fused_add_layer_norm ours bfloat16 4096 16384
 case_ 1 fused_add_layer_norm compile bfloat16 4096 16384) &
wait
fi
echo "done at $(elapsed) s"; pack
