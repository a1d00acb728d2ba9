#!/usr/bin/env bash
# Check N3 (one H200, in the session's last device time): the residual-add LayerNorm project of
# `scaffold gpu-bundle .gpu` built, then its CUDA cases of the two tests added after calls N and N2
# (rows far from zero whose first element lies some deviations out; the residual-add sum normalized
# as rounded) and of the far-first tests. Output in $OUT/n3.log.
set -u
export PYTHONUNBUFFERED=1 CC=/usr/bin/gcc CXX=/usr/bin/g++ TORCH_CUDA_ARCH_LIST=9.0a
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel 2>/dev/null || pwd)
cd "$root/.gpu/fused_add_layer_norm" || exit 1
cat "$root/.gpu/commit.txt" > "$OUT/n3.log"
MAX_JOBS=16 FORCE_CUDA=1 timeout 120 python3 setup.py build_ext --inplace > "$OUT/n3_build.log" 2>&1
echo "build exit $?" >> "$OUT/n3.log"
timeout 40 python3 -m pytest -q -p no:cacheprovider tests -k "cuda and (some_deviations_out or normalized_as_rounded or far_from_the_others)" >> "$OUT/n3.log" 2>&1
echo "tests exit $?" >> "$OUT/n3.log"
