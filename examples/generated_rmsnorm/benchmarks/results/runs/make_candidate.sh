#!/usr/bin/env bash
# A landing candidate made again, and bundled into the checkout's .gpu/ (from session 64 on; cb/ and
# cl/ call it). A landing's phases may span sessions, and landing.py takes a call's suites from one
# commit's bundle only; the candidate (main's commit with the call's template diff applied and the
# examples rendered again) is a local commit that main does not hold and a new checkout does not
# have. This makes it once more, in a worktree beside the checkout (its tree, parent, author, date and
# message the same, so its hash is too; checked where the hash is given), and bundles it (`scaffold
# gpu-bundle`, run from the worktree so that it renders the worktree's template). Run from anywhere in
# the checkout, in the repository's venv:
#     bash make_candidate.sh BASE DIFF DATE MESSAGE WORKTREE [COMMIT]
# BASE the parent commit, DIFF the diff's path from the repository's root, read from BASE's tree (the
# worktree's), DATE the author and committer date (git's "SECONDS +0000"), WORKTREE the default
# worktree (CANDIDATE_WORKTREE overrides it; a caller's own variable, where it has one, is named in
# its header): a path that is not there yet, or this repository's worktree (replaced); anything else
# is refused, never removed. COMMIT, where given, is the full hash the candidate must have. The
# user's git settings that would change what is committed (hooks, signing, whitespace fixes, the
# commit's encoding) are set aside for these commands.
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: bash make_candidate.sh BASE DIFF DATE MESSAGE WORKTREE [COMMIT]"; exit 2; }
base=$1 diff=$2 date=$3 message=$4 work=${CANDIDATE_WORKTREE:-$5} commit=${6:-}
root=$(git rev-parse --show-toplevel)
if [ -e "$work" ]; then
  work=$(cd "$work" && pwd -P)
  listed=$(git -C "$root" worktree list --porcelain | sed -n 's/^worktree //p')
  if [ "$work" = "$(cd "$root" && pwd -P)" ] || ! grep -qxF "$work" <<< "$listed"; then
    echo "$work is there and is not a worktree of $root besides the checkout: name another (CANDIDATE_WORKTREE)"
    exit 2
  fi
  git -C "$root" worktree remove --force "$work"
fi
git -C "$root" worktree prune
git -c core.hooksPath=/dev/null -C "$root" worktree add -q --detach "$work" "$base"
cd "$work"
git -c apply.whitespace=nowarn apply "$diff"
python -m scaffold render-example > /dev/null
export GIT_AUTHOR_NAME="Seed 6eeda567 maintainers" GIT_COMMITTER_NAME="Seed 6eeda567 maintainers"
export GIT_AUTHOR_EMAIL=maintainers@users.noreply.a-seed-6eeda567.example
export GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE="$date" GIT_COMMITTER_DATE="$date"
git -c commit.gpgsign=false -c i18n.commitEncoding=UTF-8 commit --no-verify --no-gpg-sign -qam "$message"
made=$(git rev-parse HEAD)
if [ -n "$commit" ]; then
  [ "$made" = "$commit" ] || { echo "made $made, not $commit: the bundle would not be the candidate's"; exit 1; }
fi
rm -rf "$root/.gpu"
python -m scaffold gpu-bundle "$root/.gpu" > /dev/null
echo "bundled $(cat "$root/.gpu/commit.txt") into $root/.gpu (worktree $work)"
