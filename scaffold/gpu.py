"""Preparing the GPU machine's run: it has no copier, so the projects are rendered here first.

`scaffold gpu-bundle DEST` renders the two examples, one project per other activation, one per
other operator of the row normalization family (LayerNorm; RMSNorm after a residual add; RMSNorm with
a zero-centred weight, with and without the add) and a
project with an operator of each family into DEST, with a script that runs each project's
benchmarks/gpu_suite.py (the two-family project: its CUDA tests) and gathers the results:

    bash DEST/run.sh RESULTS [example|rmsnorm|activations|norms|two_families|all] ["ACTIVATION ..."]

The examples' results belong in examples/<example>/benchmarks/results/, the other activations' in
examples/generated_gelu/benchmarks/results/activations/, the other norms' in
examples/generated_rmsnorm/benchmarks/results/norms/<operator>/, the two-family project's in
examples/generated_rmsnorm/benchmarks/results/two_families/. DEST/commit.txt names the template's
commit (and whether the checkout had uncommitted changes, which the rendering includes).
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import tempfile
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
# RMSNorm's zero-centred weight (Gemma's: rows scaled by 1 + weight), without and with the residual
# add: the answers whose CUDA kernels no other project of the bundle builds (kWeightOffset 1). Their
# records (results/norms/<operator>/) say which kernel sources they ran. run.sh runs them with the
# other norms, but the landings of runs/ (call_ap.sh) re-run OTHER_NORMS alone, so their tables may
# name earlier sources, as the README then says.
ZERO_CENTERED_NORMS = {
    "gemma_rms_norm": {"zero_centered_weight": True},
    "fused_add_gemma_rms_norm": {"zero_centered_weight": True, "residual_add": True},
}
# Every norm project the bundle renders besides the RMSNorm example, by operator name.
BUNDLE_NORMS = {**OTHER_NORMS, **ZERO_CENTERED_NORMS}

# A project with an operator of each family: the template's default answers (a bias + GELU, tanh
# approximation, operator) in a project named TWO_FAMILIES_PROJECT, then an RMSNorm operator with the
# residual add, added as the README's "Adding an operator" says (an answers file of its own; the
# project's answers come from .copier-answers.yml).
TWO_FAMILIES_PROJECT = "Mixed"
TWO_FAMILIES_SECOND_OPERATOR = {"family": "row_norm", "residual_add": True}
TWO_FAMILIES_SECOND_ANSWERS_FILE = ".copier-answers.fused_add_rms_norm.yml"

RUN_SH = """#!/usr/bin/env bash
# Runs on the GPU machine: each project's GPU suite, results gathered under RESULTS. PYTHON: the
# interpreter that has torch (python3 unless set).
set -u
bundle=$(cd "$(dirname "$0")" && pwd)
results=$(mkdir -p "$1" && cd "$1" && pwd)
which=${{2:-all}}
activations=${{3:-{activations}}}
norms="{norms}"
python=${{PYTHON:-python3}}
status=0
# The examples: build, tests, compute-sanitizer, benchmark and the just-in-time build.
for example in example rmsnorm; do
  if [ "$which" = all ] || [ "$which" = "$example" ]; then
    (cd "$bundle/$example" && "$python" benchmarks/gpu_suite.py --out "$results/$example") || status=1
  fi
done
# The project with an operator of each family: build, then its CUDA test cases.
if [ "$which" = all ] || [ "$which" = two_families ]; then
  out="$results/two_families"
  mkdir -p "$out" && cp "$bundle/commit.txt" "$out/commit.txt" || status=1
  for answers in "$bundle/two_families"/.copier-answers*.yml; do  # what it was rendered with
    [ -e "$answers" ] && {{ cp "$answers" "$out/${{answers##*/.}}" || status=1; }}
  done
  (cd "$bundle/two_families" && FORCE_CUDA=1 "$python" setup.py build_ext --inplace > "$out/build.log" 2>&1 &&
    "$python" -m pytest -q -p no:cacheprovider tests -k cuda > "$out/tests_cuda.log" 2>&1) || status=1
fi
# The other operators of each family: build (all at once), tests and benchmark.
others=""
if [ "$which" = all ] || [ "$which" = activations ]; then others="$others $activations"; fi
if [ "$which" = all ] || [ "$which" = norms ]; then others="$others $norms"; fi
for project in $others; do
  (cd "$bundle/$project" && FORCE_CUDA=1 "$python" setup.py build_ext --inplace > build.log 2>&1) &
done
wait
# The other norms have kernels of their own (centring, a bias): compute-sanitizer runs on them too;
# the other activations share the example's kernels.
for project in $others; do
  case " $norms " in
    *" $project "*) kind=norms; skip="--skip-build --skip-jit" ;;
    *) kind=activations; skip="--skip-build --skip-sanitizer --skip-jit" ;;
  esac
  (cd "$bundle/$project" && "$python" benchmarks/gpu_suite.py $skip --out "$results/$kind/$project") || status=1
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
    the RMSNorm example's (a name of BUNDLE_NORMS)."""
    return {
        **render.EXAMPLES["generated_rmsnorm"],
        **BUNDLE_NORMS[name],
        "op_name": name,
        "package_name": f"example_{name}",
        "project_name": f"Example {name}",
    }


def render_two_families(destination: Path) -> Path:
    """Render the project with an operator of each family into `destination` (replaced).

    Both operators are rendered from one snapshot of the template as it is on disk, committed in a
    scratch repository: copier renders uncommitted changes as a commit of its own each time, and
    refuses to add an operator of another commit than the project's.
    """
    if destination.exists():
        shutil.rmtree(destination)
    with tempfile.TemporaryDirectory() as scratch:
        snapshot = _template_snapshot(Path(scratch) / "template")
        render.render(destination, {"project_name": TWO_FAMILIES_PROJECT}, template=snapshot)
        render.render(
            destination,
            TWO_FAMILIES_SECOND_OPERATOR,
            answers_file=TWO_FAMILIES_SECOND_ANSWERS_FILE,
            template=snapshot,
        )
    return destination


def _template_files(source: Path) -> list[str]:
    """copier.yml's and template/'s files as copier renders a checkout's: those git tracks or would track
    (not ignored), as they are on disk; outside a git checkout, every file."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "copier.yml", "template"],
        cwd=source,
        capture_output=True,
    )
    if listed.returncode != 0:
        files = [source / "copier.yml", *(path for path in (source / "template").rglob("*") if path.is_file())]
        return [path.relative_to(source).as_posix() for path in files]
    names = (name for name in listed.stdout.decode().split("\0") if name)
    return sorted({name for name in names if (source / name).is_file()})  # not those deleted on disk


def _template_snapshot(root: Path) -> Path:
    """copier.yml and template/ as they are on disk, committed in a new repository at `root`."""
    source = render.template_root()
    root.mkdir(parents=True)
    for name in _template_files(source):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / name, root / name)
    # The commit is the bundle's own: no signing, no hooks, whatever the user's git configuration says.
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "--no-verify", "--no-gpg-sign", "-m", "snapshot"]):
        done = subprocess.run(
            ["git", "-c", "user.name=scaffold", "-c", "user.email=scaffold@localhost", *command],
            cwd=root,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"git {command[0]} of the template's snapshot in {root} failed: {done.stderr.strip()}")
    return root


def template_commit() -> str:
    """commit.txt's text: the template's commit, and a second line where the checkout has uncommitted
    changes to what renders (copier.yml, template/), which render renders too; "unknown" outside a git
    checkout."""
    root = render.template_root()

    def git(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)

    head = git("rev-parse", "HEAD")
    if head.returncode != 0:
        return "unknown\n"
    # Changes to what renders, new files too whatever status.showUntrackedFiles says.
    dirty = git("status", "--porcelain", "--untracked-files=all", "--", "copier.yml", "template").stdout.strip()
    return head.stdout.strip() + ("\nwith uncommitted changes\n" if dirty else "\n")


def bundle(destination: Path) -> Path:
    """Render the examples and the other operators' projects into `destination` (replaced)."""
    render.render_example(destination / "example", render.EXAMPLES["generated_gelu"])
    render.render_example(destination / "rmsnorm", render.EXAMPLES["generated_rmsnorm"])
    for activation in OTHER_ACTIVATIONS:
        render.render(destination / activation, activation_answers(activation))
    for norm in BUNDLE_NORMS:
        render.render(destination / norm, norm_answers(norm))
    render_two_families(destination / "two_families")
    (destination / "commit.txt").write_text(template_commit())
    script = destination / "run.sh"
    script.write_text(run_script())
    script.chmod(0o755)
    return destination


def run_script() -> str:
    """run.sh's text, with the bundle's activations and norms."""
    return RUN_SH.format(
        activations=" ".join(shlex.quote(a) for a in OTHER_ACTIVATIONS),
        norms=" ".join(shlex.quote(n) for n in BUNDLE_NORMS),
    )
