#!/usr/bin/env bash
# Renders the projects of GPU calls X1 and X2 from the worktree given as $1 (default /work/wt11),
# which must be clean (copier renders a dirty checkout from a commit of each copy's own).
set -eu
T=${1:-/work/wt11}
X=$(cd "$(dirname "$0")" && pwd)
rm -rf "$X/rmsnorm" "$X/example" "$X/layer_norm" "$X/fused_add_rms_norm" "$X/fused_add_layer_norm" "$X/mixed"
test -z "$(git -C "$T" status --porcelain)" || { echo "$T has uncommitted changes"; exit 1; }
git -C "$T" rev-parse HEAD > "$X/commit.txt"
cd "$T"
python3 - "$X" <<'PY'
import sys
from pathlib import Path
from scaffold import gpu, render
x = Path(sys.argv[1])
render.render_example(x / "rmsnorm", render.EXAMPLES["generated_rmsnorm"])
render.render_example(x / "example", render.EXAMPLES["generated_gelu"])
for name in gpu.OTHER_NORMS:
    render.render(x / name, gpu.norm_answers(name))
# LayerNorm with the residual add: its tests only (no record of its own in the examples).
answers = {**gpu.norm_answers("layer_norm"), "residual_add": True, "op_name": "fused_add_layer_norm",
           "package_name": "example_fused_add_layer_norm", "project_name": "Example fused_add_layer_norm"}
render.render(x / "fused_add_layer_norm", answers)
PY
# A project with an operator of each family: the gelu example's answers, then an RMSNorm operator
# with the residual add.
python3 -m copier copy --quiet --defaults --vcs-ref HEAD --data project_name=Mixed "$T" "$X/mixed" 2>/dev/null
cd "$X/mixed" && git init -q && git add -A && git -c user.name=x -c user.email=x@x commit -qm generated
python3 -m copier copy --quiet --defaults --vcs-ref HEAD -a .copier-answers.fused_add_rms_norm.yml \
    --data family=row_norm --data residual_add=true "$T" . 2>/dev/null
rm -rf .git
ls "$X/mixed/csrc" "$X/mixed/tests"
