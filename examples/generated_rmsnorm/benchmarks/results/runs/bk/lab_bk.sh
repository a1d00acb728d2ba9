#!/usr/bin/env bash
# Lab BK (issue 11), prepared in session 52 (2026-11-30) for a later session: one call on two H200s
# (nvidia-h200-x2), carrying .gpu (`scaffold gpu-bundle .gpu` of main; the LayerNorm projects at least):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bk/lab_bk.sh   (timeout_s 600)
# Analysis BK's candidates (analysis_bk.md, variant_bk.py: c1, the clustered rows' shift from a staged
# copy of each row's first 16 bytes; c12, c1 and the output pass as fused multiply-adds) against main
# (base) in LayerNorm's and the residual-add LayerNorm's projects, all six builds at once; each
# build's outputs and gradients on fixed inputs with massive-activation and far rows (grads_bk.py, at
# 1024 x 65536, 2048 x 32768 and 300 x 65536, kept on the machine), c1's and c12's against base's
# (compare_bk.py: c1 must be bitwise equal); the CUDA tests of the backward in each c12 build (at most
# 150 s: LayerNorm on GPU 0, the residual-add LayerNorm on GPU 1); the device time of forward and
# forward+backward (../e/e_time.py) of base, c1, c12 and base again in the 16-bit dtypes at 1024 x
# 65536, 2048 x 32768 and 4096 x 16384 (LayerNorm on GPU 0, the residual-add LayerNorm on GPU 1);
# then racecheck of LayerNorm's c12 build (c1 hands the row's first 16 bytes from lane 0 to its warp
# in shared memory) and memcheck of the residual-add LayerNorm's (at most 90 s each). Limit 580 s: no timing
# starts with under 50 s left. Results in $OUT/res_bk.tgz: `mkdir -p bk/bk && tar xzf res_bk.tgz -C
# bk/bk --strip-components=1` in runs/, add console.txt, then `python3 lab_summary.py bk/bk base c1
# c12 > bk/summary_bk.txt`. Not tried on a GPU; its Python parts ran on the CPU (grads_bk.py with
# BK_DEVICE=cpu, compare_bk.py) and variant_bk.py applied both variants to the bundle's projects, whose
# c12 CUDA translation units compiled here with nvcc 13.0 for sm_90a (../j/ptx_tools/ptxas.sh:
# ptxas_layer_norm_c12.txt, ptxas_fused_add_layer_norm_c12.txt; 196 kernels each, exit 0).
. "$(dirname "$0")/../call_lib.sh" bk
lab_start  # limit, gpus, L (call_lib.sh)
[ "$gpus" -gt 1 ] || { echo "lab BK wants two GPUs"; exit 3; }
declare -A LAB_EDITS=([base]="" [c1]="bk:c1" [c12]="bk:c12")
PROJECTS="layer_norm fused_add_layer_norm"
lab_builds "$PROJECTS" "base c1 c12"
grads() {  # grads PROJECT GPU: each build's tensors, kept in L (too large for $OUT)
  local v
  for v in base c1 c12; do  # at once (each file up to 2.5 GB, about 25 s to make and save on a CPU)
    (cd "$L/$1_$v" && CUDA_VISIBLE_DEVICES=$2 timeout 90 python3 "$G/grads_bk.py" "${OP[$1]}" "$L/grads_$1_$v.pt" \
       > "$R/grads_$1_$v.log" 2>&1
     echo "grads $1 $v exit $? at $(elapsed) s") &
  done
  wait
  for v in c1 c12; do
    (python3 "$G/compare_bk.py" "$L/grads_$1_base.pt" "$L/grads_$1_$v.pt" > "$R/compare_$1_$v.txt" 2>&1
     echo "compare $1 $v: $(head -n 1 "$R/compare_$1_$v.txt")") &
  done
  wait
}
grads layer_norm 0 &
grads fused_add_layer_norm 1 &
wait; pack
K="not cpu and (backward or cluster or far or gradcheck or deterministic or gradients)"
backward_tests() {
  local l=$(( $(lab_left) - 150 )); [ "$l" -gt 150 ] && l=150  # 150 s kept for the timings and the sanitizers
  [ "$l" -gt 10 ] || { echo "tests $1 not run: $(elapsed) s"; return; }
  (cd "$L/$1" && CUDA_VISIBLE_DEVICES=$2 timeout "$l" python3 -m pytest tests -q -p no:cacheprovider -k "$K" \
     > "$R/tests_$1.log" 2>&1)
  echo "tests $1 exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_$1.log")"
}
backward_tests layer_norm_c12 0 &
backward_tests fused_add_layer_norm_c12 1 &
wait; pack
SHAPES=1024x65536,2048x32768,4096x16384
lab_time_runs 0 16bit bfloat16,float16 "$SHAPES" layer_norm "base c1 c12 base" &
lab_time_runs 1 16bit bfloat16,float16 "$SHAPES" fused_add_layer_norm "base c1 c12 base" &
wait
lab_sanitize layer_norm_c12 layer_norm racecheck 0 90 &  # c1's hand-off in shared memory within a warp
lab_sanitize fused_add_layer_norm_c12 fused_add_layer_norm memcheck 1 90 &
wait
echo "done at $(elapsed) s"; pack
