#!/usr/bin/env bash
# Lab T4c (issue 11): s/commit.txt (lab T4b's reductions without the unrolled, guarded butterfly; three stages
# for RMSNorm's backward at four or more vectors a thread) against m0/commit.txt, LayerNorm and RMSNorm.
# Earlier: Lab T4b (issue 11): the template at r/commit.txt (row reductions: equal counts combined without a division,
# the butterfly over the warps in log2(warps) steps) against m0/commit.txt, for LayerNorm, RMSNorm and both
# residual-add norms; rms_r3/frms_r3 add three stages of staging for RMSNorm's backward at four or more
# vectors a thread (patch_t4b.py). Then the CUDA tests of ln_r and rms_r3.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
T=$(cd "$(dirname "$0")" && pwd); R=$T/res; rm -rf "$R"; mkdir -p "$R"; start=$(date +%s)
nvidia-smi > "$R/nvidia_smi.txt" 2>&1
cp "$T/m0/commit.txt" "$R/commit_m0.txt"; cp "$T/s/commit.txt" "$R/commit_s.txt"
for p in m0/ln_m0 m0/rms_m0 s/ln_s s/rms_s; do
  (cd "$T/$p" && MAX_JOBS=4 timeout 400 python3 setup.py build_ext --inplace > "$R/build_$(basename $p).log" 2>&1; echo "build $p exit $? at $(( $(date +%s) - start )) s") &
done
wait
pack() { tar czf "$OUT/t4c.tgz" -C "$T" res; }
run() {  # run DIR OP
  local p=$1 op=$2 b; b=$(basename "$1")
  (cd "$T/$p" && timeout 150 python3 "$T/t4_time.py" "$op" "$b" "$R/time_$b.json" none > "$R/time_$b.log" 2>&1
   echo "time $b exit $? at $(( $(date +%s) - start )) s")
}
run m0/ln_m0 layer_norm; run s/ln_s layer_norm; pack
run m0/rms_m0 rms_norm; run s/rms_s rms_norm; pack
echo "done at $(( $(date +%s) - start )) s"
