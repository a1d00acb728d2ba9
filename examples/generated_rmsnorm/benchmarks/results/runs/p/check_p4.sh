#!/usr/bin/env bash
# Check P4 (issue 11), one H200, the session's last device time: LayerNorm's benchmark at 4096 x 16384
# and 32768 x 4096 in bfloat16 and float16, the template's kernels (.gpu/layer_norm, 3199d30) against
# those before row_origin (.gpu/layer_norm_old: csrc/row_norm/cuda.cuh of cdcde01), built at once,
# then timed alternately (new, old, new, old; eager only, no torch.compile or Liger): in call P2 the
# 16-bit forward+backward at 4096 x 16384 took 216.5 us where G2 had 191.3, though the backward's PTX
# is the same. Results tarred into $OUT/res_p4.tgz.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
G=$(cd "$(dirname "$0")" && pwd); root=$(git -C "$G" rev-parse --show-toplevel 2>/dev/null || pwd)
X=$root/.gpu; R=/tmp/res_p4; rm -rf "$R"; mkdir -p "$R"
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
pack() { local t; t=$(mktemp -p "$OUT" .res_p4.XXXXXX) && tar czf "$t" -C /tmp res_p4 2>/dev/null; mv -f "$t" "$OUT/res_p4.tgz"; }
cp "$X/commit.txt" "$R/"; nvidia-smi > "$R/nvidia_smi.txt" 2>&1
for p in layer_norm layer_norm_old; do
  (cd "$X/$p" && MAX_JOBS=8 FORCE_CUDA=1 timeout 150 python3 setup.py build_ext --inplace > "$R/build_$p.log" 2>&1; echo "build $p exit $? at $(elapsed) s") &
done
wait
i=0
for p in layer_norm layer_norm_old layer_norm layer_norm_old; do
  i=$((i + 1))
  (cd "$X/$p" && timeout 40 python3 benchmarks/bench_layer_norm.py --shapes 4096x16384 32768x4096 --dtypes bfloat16 float16 \
     --no-compile --no-peers --json "$R/${i}_$p.json" > "$R/${i}_$p.log" 2>&1; echo "bench $i $p exit $? at $(elapsed) s")
  pack
done
echo "done at $(elapsed) s"; pack
