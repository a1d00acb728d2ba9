#!/usr/bin/env bash
# Call CB's landing candidate made again, and bundled into the checkout's .gpu/ (from session 60 on).
# Phase 1 (cb/1/, cb/1b/, cbz/1/) and the first suite (cb/4_fused_add_layer_norm/) ran the bundle of
# 7ec2e34: aca8986 with ca/template_change.diff applied and the examples rendered again, a local
# commit that main does not hold and a new checkout does not have. landing.py takes a call's suites
# from one commit's bundle only, so the suites still to run must run 7ec2e34's again: this makes that
# commit once more, in a worktree beside the checkout (its tree, parent, author, date and message
# the same, so its hash is too; checked), and bundles it (`scaffold gpu-bundle`, run from the
# worktree so that it renders the worktree's template). Run from anywhere in the checkout, in the
# repository's venv:
#     bash examples/generated_rmsnorm/benchmarks/results/runs/cb/candidate.sh
# The worktree is /tmp/land-ca, or CB_CANDIDATE_WORKTREE: a path that is not there yet, or this
# repository's worktree (replaced); anything else is refused, never removed. The user's git settings
# that would change what is committed (hooks, signing, whitespace fixes, the commit's encoding) are
# set aside for these commands.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
work=${CB_CANDIDATE_WORKTREE:-/tmp/land-ca}
commit=7ec2e34fd4f7e2b5c1aac46549f9f0ceb6ecabaf
if [ -e "$work" ]; then
  work=$(cd "$work" && pwd -P)
  listed=$(git -C "$root" worktree list --porcelain | sed -n 's/^worktree //p')
  if [ "$work" = "$(cd "$root" && pwd -P)" ] || ! grep -qxF "$work" <<< "$listed"; then
    echo "$work is there and is not a worktree of $root besides the checkout: name another (CB_CANDIDATE_WORKTREE)"
    exit 2
  fi
  git -C "$root" worktree remove --force "$work"
fi
git -C "$root" worktree prune
git -C "$root" worktree add -q --detach "$work" aca8986e3331ad223306de3de1c457d3546e9bc6
cd "$work"
git -c apply.whitespace=nowarn apply examples/generated_rmsnorm/benchmarks/results/runs/ca/template_change.diff
python -m scaffold render-example > /dev/null
export GIT_AUTHOR_NAME="Seed 6eeda567 maintainers" GIT_COMMITTER_NAME="Seed 6eeda567 maintainers"
export GIT_AUTHOR_EMAIL=maintainers@users.noreply.a-seed-6eeda567.example
export GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE="1796133097 +0000" GIT_COMMITTER_DATE="1796133097 +0000"
git -c commit.gpgsign=false -c i18n.commitEncoding=UTF-8 commit --no-verify --no-gpg-sign -qam \
  "LANDING CANDIDATE (call CB; not for main until its suites land): ca/template_change.diff"
made=$(git rev-parse HEAD)
[ "$made" = "$commit" ] || { echo "made $made, not $commit: the bundle would not be the candidate's"; exit 1; }
rm -rf "$root/.gpu"
python -m scaffold gpu-bundle "$root/.gpu" > /dev/null
echo "bundled $(cat "$root/.gpu/commit.txt") into $root/.gpu (worktree $work)"
