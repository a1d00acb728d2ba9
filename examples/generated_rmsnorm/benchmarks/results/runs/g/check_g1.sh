#!/usr/bin/env bash
# Check G1 (GPU machine): the LayerNorm backward's second look at far rows (the patch in this folder,
# applied to the template), rendered here into .gpu/ (layer_norm, fused_add_layer_norm): both built
# for sm_90a at once, then their whole test suites at once, then far_check.py. Logs in $OUT.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
G=$(cd "$(dirname "$0")" && pwd); root=$(pwd); start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/nvidia_smi.txt" 2>&1
python3 -c 'import torch; print(torch.__version__, torch.version.cuda)' > "$OUT/torch.txt" 2>&1
date -u +%FT%TZ >> "$OUT/torch.txt"
for p in layer_norm fused_add_layer_norm; do
  (cd "$root/.gpu/$p" && MAX_JOBS=8 FORCE_CUDA=1 timeout 170 python3 setup.py build_ext --inplace > "$OUT/build_$p.log" 2>&1
   echo "build $p exit $? at $(elapsed) s") &
done
wait
for p in layer_norm fused_add_layer_norm; do
  (cd "$root/.gpu/$p" && timeout 90 python3 -m pytest -q -p no:cacheprovider tests > "$OUT/tests_$p.log" 2>&1
   echo "tests $p exit $? at $(elapsed) s: $(tail -n 1 "$OUT/tests_$p.log")") &
done
wait
for p in layer_norm fused_add_layer_norm; do
  (cd "$root/.gpu/$p" && timeout 30 python3 "$G/far_check.py" "$p" cuda) >> "$OUT/far_check.txt" 2>&1
done
cat "$OUT/far_check.txt"; echo "done at $(elapsed) s"
