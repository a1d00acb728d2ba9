#!/usr/bin/env bash
# Call BI (issue 11; session 51, 2026-11-30), on one H200 (nvidia-h200): the zero-centred RMSNorm's
# answers (zero_centered_weight, Gemma's 1 + weight), which no GPU had run, without and with the
# residual add: the projects gemma_rms_norm and fused_add_gemma_rms_norm of `scaffold gpu-bundle`
# (scaffold/gpu.py's ZERO_CENTERED_NORMS), carried as .gpu/ holding those two projects and the
# bundle's commit.txt. Two phases, each a call of its own, back to back:
#   bash call_bi.sh 1  (carry .gpu and .whl: Liger-Kernel 0.8.5's wheel) both projects built at
#                      once; their CUDA tests first (both at once; a broken kernel stops here); then
#                      each one's benchmark alone on the GPU (against Liger-Kernel's gemma mode)
#   bash call_bi.sh 2  (.gpu carried again, or not: a machine still warm keeps phase 1's builds,
#                      which the suites then take; a fresh one builds them first) both suites at once
#                      (gpu_suite.py --skip-benchmark --skip-jit: tests, compute-sanitizer), each
#                      within what is left of the call's 580 s
# Results in $OUT/res_biPHASE.tgz, unpacked into runs/bi/PHASE/ with the console output as
# console.txt; then runs/bi/land_bi.py (into results/norms/<operator>/) and
# `scaffold results-table --write`.
# From session 53 on, a later call of these phases takes its own name: `CALL=NAME bash call_bi.sh 1`
# packs res_NAME1.tgz (unpacked into runs/NAME/1/), landed by `land_bi.py --call NAME`.
phase=$1
. "$(dirname "$0")/../call_lib.sh" "${CALL:-bi}$phase"
limit=580
PROJECTS="gemma_rms_norm fused_add_gemma_rms_norm"
OP[gemma_rms_norm]=gemma_rms_norm
OP[fused_add_gemma_rms_norm]=fused_add_gemma_rms_norm
[ -f "$X/commit.txt" ] || { echo "no .gpu/ here: carry .gpu"; exit 3; }
echo "GPUs: $(cat "$R/torch.txt")"
built() { ls "$X/$1"/src/*/_C*.so > /dev/null 2>&1; }
case $phase in
  1)
    ls "$root"/.whl/*.whl > /dev/null 2>&1 || { echo "no .whl/ here: carry .whl"; exit 3; }
    for p in $PROJECTS; do build "$p" 8 & done
    wait; pack
    for p in $PROJECTS; do first_tests "$p" 0 "not cpu" & done
    ok=0; for j in $(jobs -p); do wait "$j" || ok=1; done; pack
    [ $ok -eq 0 ] || { echo "a first test did not pass: stopping"; exit 1; }
    install_liger
    for p in $PROJECTS; do
      if [ $(( limit - $(elapsed) )) -ge 170 ]; then CUDA_VISIBLE_DEVICES=0 bench "$p"; pack
      else echo "bench $p: left for a later call (at $(elapsed) s)"; fi
    done ;;
  2)
    for p in $PROJECTS; do
      if built "$p"; then echo "$p: phase 1's build kept"; (suite "$p" --skip-build) &
      else (build "$p" 8 && suite "$p" --skip-build) & fi
    done
    wait ;;
  *) echo "usage: call_bi.sh 1|2"; exit 2 ;;
esac
echo "done at $(elapsed) s"; pack
