#!/usr/bin/env bash
# Call CB's landing candidate made again, and bundled into the checkout's .gpu/ (from session 60 on).
# Phase 1 (cb/1/, cb/1b/, cbz/1/) and the first suite (cb/4_fused_add_layer_norm/) ran the bundle of
# 7ec2e34: aca8986 with ca/template_change.diff applied and the examples rendered again, a local
# commit that main does not hold and a new checkout does not have. landing.py takes a call's suites
# from one commit's bundle only, so the suites still to run must run 7ec2e34's again: this makes that
# commit once more, in a worktree beside the checkout (its tree, parent, author, date and message
# the same, so its hash is too; checked), and bundles it (`scaffold gpu-bundle`, run from the
# worktree so that it renders the worktree's template); from session 64 on by ../make_candidate.sh,
# which call CL's candidate shares. Run from anywhere in the checkout, in the repository's venv:
#     bash examples/generated_rmsnorm/benchmarks/results/runs/cb/candidate.sh
# The worktree is /tmp/land-ca, or CB_CANDIDATE_WORKTREE (or CANDIDATE_WORKTREE): a path that is not there yet, or this
# repository's worktree (replaced); anything else is refused, never removed. The user's git settings
# that would change what is committed (hooks, signing, whitespace fixes, the commit's encoding) are
# set aside for these commands.
set -euo pipefail
runs=examples/generated_rmsnorm/benchmarks/results/runs
CANDIDATE_WORKTREE=${CB_CANDIDATE_WORKTREE:-${CANDIDATE_WORKTREE:-/tmp/land-ca}} bash "$(dirname "$0")/../make_candidate.sh" \
  aca8986e3331ad223306de3de1c457d3546e9bc6 "$runs/ca/template_change.diff" "1796133097 +0000" \
  "LANDING CANDIDATE (call CB; not for main until its suites land): ca/template_change.diff" \
  /tmp/land-ca 7ec2e34fd4f7e2b5c1aac46549f9f0ceb6ecabaf
