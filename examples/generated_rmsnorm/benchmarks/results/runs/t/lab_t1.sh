#!/usr/bin/env bash
# Lab T1 (issue 11): where the time goes at the shapes where ours is slower than a peer: 16x4096 (all
# operators; a few rows, where the GPU waits on one row's latency) and the float32 backward at
# 32768x4096 (torch.compile's forward+backward took 0.93x ours' time in X15). Builds the RMSNorm
# example, the LayerNorm and residual-add LayerNorm projects with lab_patch_t1.py's knob (LAB_FEW),
# then t1_kernels.py (kernels and device times of every implementation; ours at LAB_FEW 0 and 1),
# Nsight Compute of the float32 backward at 32768x4096 (ours, torch.compile's), torch.compile's
# generated code, and Nsight Compute of the LayerNorm forward at 16x4096. Results in $OUT/t1.tgz.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
X=$(cd "$(dirname "$0")/.." && pwd); T=$X/t1; R=$T/res; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
cp "$X/commit.txt" "$R/"
nvidia-smi > "$R/nvidia_smi.txt" 2>&1
python3 -m pip install -q --no-index --no-deps --target /tmp/site "$X"/liger_kernel-*.whl > "$R/pip.log" 2>&1
export PYTHONPATH=/tmp/site
for p in rmsnorm layer_norm fused_add_layer_norm; do
  python3 "$T/lab_patch_t1.py" "$X/$p" > /dev/null
  (cd "$X/$p" && MAX_JOBS=5 timeout 240 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(( $(date +%s) - start )) s") &
done
wait
pack() { tar czf "$OUT/t1.tgz" -C "$T" res; }
run() {  # run PROJECT OP CASES FEW NAME SECONDS
  (cd "$X/$1" && T1_CASES="$3" timeout $6 python3 "$T/t1_kernels.py" "$2" "$R/kernels_$2_$5.json" "$4" > "$R/kernels_$2_$5.log" 2>&1
   echo "kernels $2 $5 exit $? at $(( $(date +%s) - start )) s")
}
prof() {  # prof PROJECT OP IMPL DTYPE M N PASS
  local name="ncu_$2_$3_$4_$5x$6_$7"
  (cd "$X/$1" && timeout 90 ncu --profile-from-start off --clock-control none --section LaunchStats \
     --section Occupancy --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
     --section SchedulerStats python3 "$T/t1_ncu.py" "$2" "$3" "$4" "$5" "$6" "$7" > "$R/$name.txt" 2>&1
   echo "$name exit $? at $(( $(date +%s) - start )) s")
}
SMALL='[["bfloat16", [16, 4096]], ["float32", [16, 4096]], ["bfloat16", [64, 4096]]]'
run rmsnorm rms_norm "$SMALL" 0,1 small 150
pack
prof rmsnorm rms_norm ours float32 32768 4096 backward
prof rmsnorm rms_norm compile float32 32768 4096 backward
pack
(cd "$X/rmsnorm" && TORCH_LOGS=output_code timeout 60 python3 "$T/t1_ncu.py" rms_norm compile float32 32768 4096 backward > "$R/code_rms_float32_32768x4096.log" 2>&1)
(cd "$X/rmsnorm" && TORCH_LOGS=output_code timeout 60 python3 "$T/t1_ncu.py" rms_norm compile bfloat16 16 4096 backward > "$R/code_rms_bfloat16_16x4096.log" 2>&1)
(cd "$X/layer_norm" && TORCH_LOGS=output_code timeout 60 python3 "$T/t1_ncu.py" layer_norm compile float32 16 4096 backward > "$R/code_ln_float32_16x4096.log" 2>&1)
echo "code at $(( $(date +%s) - start )) s"
pack
run layer_norm layer_norm '[["bfloat16", [16, 4096]], ["float32", [16, 4096]]]' 0,1 small 120
pack
run fused_add_layer_norm fused_add_layer_norm '[["float32", [16, 4096]]]' 0,1 small 80
pack
prof layer_norm layer_norm ours float32 16 4096 forward
prof layer_norm layer_norm compile float32 16 4096 forward
pack
echo "done at $(( $(date +%s) - start )) s"
