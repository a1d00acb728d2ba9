#!/usr/bin/env bash
# Landing call AH (issue 11), on one H200 (nvidia-h200), for a later session: the two kernel changes
# of ah.patch (prepared on 2026-11-29 without a GPU; see the runs README's `ah/` entry):
#   - LayerNorm's backward sums a row about the median of its first three elements (backward_shift),
#     so that a row whose first element alone lies far is no longer read a second time
#     (far_row_sums): lab AD's cost of one such row, 9.7 to 31.1 us at the benchmark's shapes;
#   - the residual-add LayerNorm's 16-bit forward rows of 1025 to 2048 vectors take eight vectors a
#     thread on 256 threads (lab AE4: 0.95 to 0.97 of the forward's time at 4096 x 16384).
# Before the calls: git apply runs/ah/ah.patch (its tests too), commit, `scaffold gpu-bundle .gpu`
# at that commit; Liger-Kernel 0.8.5's wheel in .whl/ (the device README says how).
# Three phases, each a call of its own carrying .gpu (phase 1 also .whl; a carried folder does not
# stay for the next call: call AG), made one right after another (the machine goes back after 30 s
# idle):
#   bash call_ah.sh 1   builds LayerNorm's and the residual-add LayerNorm's projects, runs their
#                       CUDA tests of far rows and of the forward's vectors a thread first (a broken
#                       change stops here), then both benchmarks                  (about 360 s)
#   bash call_ah.sh 2   the residual-add LayerNorm's suite, then the RMSNorm example's (about 410 s)
#   bash call_ah.sh 3   LayerNorm's suite, then the residual-add RMSNorm's        (about 450 s)
# The RMSNorm kernels compile as before (kCentered false), but the shared file's text changes, so
# every norm's suite runs again; RMSNorm's benchmarks stay call AB's (the tables say that they
# measured other kernel sources). Times from calls AB and AG. One thing at a time on the GPU.
# Results in $OUT/res_ahPHASE.tgz, unpacked into runs/ah/PHASE/ with the console output as
# console.txt; then land_ah.sh and `scaffold results-table --write`.
phase=$1
. "$(dirname "$0")/../call_lib.sh" "ah$phase"
limit=580
[ -f "$X/commit.txt" ] || { echo "no .gpu/ here: carry .gpu"; exit 3; }
case $phase in
  1)
    ls "$root"/.whl/*.whl > /dev/null 2>&1 || { echo "no .whl/ here: carry .whl"; exit 3; }
    for p in layer_norm fused_add_layer_norm; do build "$p" 8 & done
    wait; pack
    passed=1
    for p in layer_norm fused_add_layer_norm; do
      (cd "$X/$p" && timeout 120 python3 -m pytest tests -q -k "(far or vectors_a_thread) and cuda" \
         > "$R/first_$p.log" 2>&1)
      rc=$?; echo "first tests $p exit $rc at $(elapsed) s: $(tail -n 1 "$R/first_$p.log")"
      [ $rc -eq 0 ] || passed=0
    done
    pack
    [ $passed -eq 1 ] || { echo "a first test did not pass: stopping"; exit 1; }
    install_liger
    for p in layer_norm fused_add_layer_norm; do bench "$p"; pack; done ;;
  2) built_suites fused_add_layer_norm rmsnorm ;;
  3) built_suites layer_norm fused_add_rms_norm ;;
  *) echo "usage: call_ah.sh 1|2|3"; exit 2 ;;
esac
echo "done at $(elapsed) s"; pack
