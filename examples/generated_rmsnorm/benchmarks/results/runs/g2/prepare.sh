#!/usr/bin/env bash
# Renders the projects of GPU calls G2 into the repository's .gpu/ (ignored through .git/info/exclude)
# from the repository's HEAD, which must be clean (copier copies a commit).
set -eu
root=$(git rev-parse --show-toplevel); X=$root/.gpu
test -z "$(git -C "$root" status --porcelain)" || { echo "$root has uncommitted changes"; exit 1; }
rm -rf "$X"; mkdir -p "$X"
git -C "$root" rev-parse HEAD > "$X/commit.txt"
cd "$root"
python3 - "$X" <<'PY'
import sys
from pathlib import Path
from scaffold import gpu, render
x = Path(sys.argv[1])
render.render_example(x / "rmsnorm", render.EXAMPLES["generated_rmsnorm"])
for name in gpu.OTHER_NORMS:
    render.render(x / name, gpu.norm_answers(name))
PY
# A project with an operator of each family: the gelu example's answers, then an RMSNorm operator
# with the residual add.
python3 -m copier copy --quiet --defaults --vcs-ref HEAD --data project_name=Mixed "$root" "$X/mixed" 2>/dev/null
cd "$X/mixed" && git init -q && git add -A && git -c user.name=x -c user.email=x@x commit -qm generated
python3 -m copier copy --quiet --defaults --vcs-ref HEAD -a .copier-answers.fused_add_rms_norm.yml \
    --data family=row_norm --data residual_add=true "$root" . 2>/dev/null
rm -rf .git
ls "$X/mixed/csrc" "$X/mixed/tests"
