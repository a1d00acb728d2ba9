"""Preparing the GPU machine's run: it has no copier, so the projects are rendered here first.

`scaffold gpu-bundle DEST` renders the example and one project per other activation into DEST,
with a script that runs each project's benchmarks/gpu_suite.py and gathers the results:

    bash DEST/run.sh RESULTS [example|activations|all] ["ACTIVATION ..."]

The example's results belong in examples/generated_gelu/benchmarks/results/, the other
activations' in its activations/ subfolder.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from . import render

OTHER_ACTIVATIONS = ("gelu", "relu", "silu", "sigmoid")

RUN_SH = """#!/usr/bin/env bash
# Runs on the GPU machine: each project's GPU suite, results gathered under RESULTS.
set -u
bundle=$(cd "$(dirname "$0")" && pwd)
results=$(mkdir -p "$1" && cd "$1" && pwd)
which=${{2:-all}}
activations=${{3:-{activations}}}
status=0
if [ "$which" != activations ]; then
  (cd "$bundle/example" && python benchmarks/gpu_suite.py --out "$results/example") || status=1
fi
if [ "$which" != example ]; then
  for activation in $activations; do
    (cd "$bundle/$activation" && FORCE_CUDA=1 python setup.py build_ext --inplace > build.log 2>&1) &
  done
  wait
  for activation in $activations; do
    (cd "$bundle/$activation" && python benchmarks/gpu_suite.py --skip-build --skip-sanitizer --skip-jit \\
        --out "$results/activations/$activation") || status=1
  done
fi
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


def bundle(destination: Path) -> Path:
    """Render the example and the other activations' projects into `destination` (replaced)."""
    render.render_example(destination / "example")
    for activation in OTHER_ACTIVATIONS:
        render.render(destination / activation, activation_answers(activation))
    script = destination / "run.sh"
    script.write_text(RUN_SH.format(activations=" ".join(shlex.quote(a) for a in OTHER_ACTIVATIONS)))
    script.chmod(0o755)
    return destination
