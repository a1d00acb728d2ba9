"""Preparing the GPU machine's run: it has no copier, so the projects are rendered here first.

`scaffold gpu-bundle DEST` renders the two examples, one project per other activation and one per
other operator of the row normalization family (LayerNorm; RMSNorm after a residual add) into DEST,
with a script that runs each project's benchmarks/gpu_suite.py and gathers the results:

    bash DEST/run.sh RESULTS [example|rmsnorm|activations|norms|all] ["ACTIVATION ..."]

The examples' results belong in examples/<example>/benchmarks/results/, the other activations' in
examples/generated_gelu/benchmarks/results/activations/, the other norms' in
examples/generated_rmsnorm/benchmarks/results/norms/<operator>/.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from . import render

OTHER_ACTIVATIONS = ("gelu", "relu", "silu", "sigmoid")
# The row normalization family's other operators, by operator name: their answers besides the
# RMSNorm example's.
OTHER_NORMS = {
    "layer_norm": {"norm": "layer_norm"},
    "fused_add_rms_norm": {"residual_add": True},
    "fused_add_layer_norm": {"norm": "layer_norm", "residual_add": True},
}

RUN_SH = """#!/usr/bin/env bash
# Runs on the GPU machine: each project's GPU suite, results gathered under RESULTS.
set -u
bundle=$(cd "$(dirname "$0")" && pwd)
results=$(mkdir -p "$1" && cd "$1" && pwd)
which=${{2:-all}}
activations=${{3:-{activations}}}
norms="{norms}"
status=0
# The examples: build, tests, compute-sanitizer, benchmark and the just-in-time build.
for example in example rmsnorm; do
  if [ "$which" = all ] || [ "$which" = "$example" ]; then
    (cd "$bundle/$example" && python benchmarks/gpu_suite.py --out "$results/$example") || status=1
  fi
done
# The other operators of each family: build (all at once), tests and benchmark.
others=""
if [ "$which" = all ] || [ "$which" = activations ]; then others="$others $activations"; fi
if [ "$which" = all ] || [ "$which" = norms ]; then others="$others $norms"; fi
for project in $others; do
  (cd "$bundle/$project" && FORCE_CUDA=1 python setup.py build_ext --inplace > build.log 2>&1) &
done
wait
# The other norms have kernels of their own (centring, a bias): compute-sanitizer runs on them too;
# the other activations share the example's kernels.
for project in $others; do
  case " $norms " in
    *" $project "*) kind=norms; skip="--skip-build --skip-jit" ;;
    *) kind=activations; skip="--skip-build --skip-sanitizer --skip-jit" ;;
  esac
  (cd "$bundle/$project" && python benchmarks/gpu_suite.py $skip --out "$results/$kind/$project") || status=1
done
exit $status
"""


def activation_answers(activation: str) -> dict:
    """The answers of the project rendered for another activation than the example's."""
    return {
        **render.EXAMPLE_ANSWERS,
        "activation": activation,
        "op_name": f"fused_bias_{activation}",
        "package_name": f"example_{activation}",
        "project_name": f"Example {activation}",
    }


def norm_answers(name: str) -> dict:
    """The answers of the project rendered for another operator of the row normalization family than
    the RMSNorm example's (a name of OTHER_NORMS)."""
    return {
        **render.EXAMPLES["generated_rmsnorm"],
        **OTHER_NORMS[name],
        "op_name": name,
        "package_name": f"example_{name}",
        "project_name": f"Example {name}",
    }


def bundle(destination: Path) -> Path:
    """Render the examples and the other operators' projects into `destination` (replaced)."""
    render.render_example(destination / "example", render.EXAMPLES["generated_gelu"])
    render.render_example(destination / "rmsnorm", render.EXAMPLES["generated_rmsnorm"])
    for activation in OTHER_ACTIVATIONS:
        render.render(destination / activation, activation_answers(activation))
    for norm in OTHER_NORMS:
        render.render(destination / norm, norm_answers(norm))
    script = destination / "run.sh"
    script.write_text(
        RUN_SH.format(
            activations=" ".join(shlex.quote(a) for a in OTHER_ACTIVATIONS),
            norms=" ".join(shlex.quote(n) for n in OTHER_NORMS),
        )
    )
    script.chmod(0o755)
    return destination
