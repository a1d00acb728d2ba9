#!/usr/bin/env bash
# Renders the projects of GPU call W from the worktree given as $1 (default /work/wt11) into this folder.
set -eu
T=${1:-/work/wt11}
W=$(cd "$(dirname "$0")" && pwd)
rm -rf "$W/rmsnorm" "$W/layer_norm" "$W/mixed" "$W/example"
cd "$T"
python3 - "$W" <<'PY'
import sys
from pathlib import Path
from scaffold import gpu, render
w = Path(sys.argv[1])
render.render_example(w / "rmsnorm", render.EXAMPLES["generated_rmsnorm"])
render.render_example(w / "example", render.EXAMPLES["generated_gelu"])
render.render(w / "layer_norm", gpu.norm_answers("layer_norm"))
PY
# A project with an operator of each family: the gelu example's answers, then an RMSNorm operator.
python3 -m copier copy --quiet --defaults --vcs-ref HEAD --data project_name=Mixed "$T" "$W/mixed" 2>/dev/null
cd "$W/mixed" && git init -q && git add -A && git -c user.name=x -c user.email=x@x commit -qm generated
python3 -m copier copy --quiet --defaults --vcs-ref HEAD -a .copier-answers.rms_norm.yml \
    --data op_name=rms_norm --data family=row_norm "$T" . 2>/dev/null
rm -rf .git
ls "$W/mixed/csrc" "$W/mixed/tests"
