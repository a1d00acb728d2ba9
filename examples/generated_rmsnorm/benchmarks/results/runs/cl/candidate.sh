#!/usr/bin/env bash
# Call CL's landing candidate made again, and bundled into the checkout's .gpu/ (from session 64 on):
# 89c8971 with cl/template_change.diff applied and the examples rendered again, a local commit that
# main does not hold. Its phases were to span sessions, and landing.py takes a call's suites from one
# commit's bundle only, so every phase was to run this commit's bundle (../make_candidate.sh makes it
# the same each time, its hash checked). It did not land (the runs README's cl/ entry); this makes the
# bundle again for any later run of it. Run from anywhere in the checkout, in the repository's venv:
#     bash examples/generated_rmsnorm/benchmarks/results/runs/cl/candidate.sh
# The worktree is /tmp/land-cl, or CANDIDATE_WORKTREE (../make_candidate.sh says which paths it takes).
set -euo pipefail
runs=examples/generated_rmsnorm/benchmarks/results/runs
bash "$(dirname "$0")/../make_candidate.sh" \
  89c8971c6c40e9577bd6c1dfda04d4235675cb2e "$runs/cl/template_change.diff" "1796169600 +0000" \
  "LANDING CANDIDATE (call CL; not for main until its suites land): cl/template_change.diff" \
  /tmp/land-cl 958cb1446fe04d0158a8657f049ceae4631db751
