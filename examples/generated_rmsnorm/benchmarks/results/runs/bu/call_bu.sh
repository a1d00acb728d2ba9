#!/usr/bin/env bash
# Call BU (issue 11), prepared in session 57 (2026-12-01) for a later session: one call carrying .gpu
# (`scaffold gpu-bundle .gpu` of main), timeout_s 600, about 350 s of command, on one H200 or, where
# lent, two (nvidia-h200-x2: the two-GPU cases run only there):
#   bash examples/generated_rmsnorm/benchmarks/results/runs/bu/call_bu.sh
# The CUDA cases that no GPU run has taken on the current template: the vmap tests that session 57
# added (families/batching.py: `-k vmap`, in every project of the bundle that holds them), and the
# two-GPU cases (`second_device`, `distributed_data_parallel`: a second device, DDP over NCCL), which
# call BN's and BNZ's one-GPU suites skipped, in the six norms' projects and the two-family project.
# All built at once (4 jobs each), then each project's selection in turn with every GPU visible, at
# most 90 s each, none started with under 30 s of the limit (580 s; LIMIT=SECONDS for less) left.
# Results in $OUT/res_bu.tgz: `mkdir -p bu/bu && tar xzf res_bu.tgz -C bu/bu --strip-components=1` in
# runs/, add console.txt. No benchmark: nothing here changes a kernel.
. "$(dirname "$0")/../call_lib.sh" bu
limit=${LIMIT:-580}
[ -f "$X/commit.txt" ] || { echo "no .gpu/ here: carry .gpu"; exit 3; }
echo "GPUs: $(cat "$R/torch.txt")"
PROJECTS="rmsnorm layer_norm fused_add_rms_norm fused_add_layer_norm gemma_rms_norm fused_add_gemma_rms_norm two_families gelu"
for p in $PROJECTS; do build "$p" 4 & done
wait; pack
for p in $PROJECTS; do
  left=$(( limit - $(elapsed) )); [ "$left" -gt 90 ] && left=90
  [ "$left" -ge 30 ] || { echo "tests $p not run: $(elapsed) s"; continue; }
  ls "$X/$p"/src/*/_C*.so > /dev/null 2>&1 || { echo "tests $p not run: not built"; continue; }
  (cd "$X/$p" && timeout "$left" python3 -m pytest tests -q -p no:cacheprovider -rs \
     -k "not cpu and (vmap or second_device or distributed_data_parallel)" > "$R/tests_$p.log" 2>&1
   echo "tests $p exit $? at $(elapsed) s: $(tail -n 1 "$R/tests_$p.log")")
  for a in "$X/$p"/.copier-answers*.yml; do cp "$a" "$R/${p}_${a##*/.}"; done
  pack
done
echo "done at $(elapsed) s"; pack
