"""Rendering the template, and keeping the examples in examples/ equal to what it renders."""

from __future__ import annotations

import filecmp
import shutil
import tempfile
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import copier
import pathspec

# The repository root: copier.yml sits here, the template files in template/.
TEMPLATE_ROOT = Path(__file__).resolve().parent.parent
EXAMPLES_ROOT = TEMPLATE_ROOT / "examples"
ANSWERS_FILE = ".copier-answers.yml"
# Measurements a project records (benchmarks/gpu_suite.py writes them): data, not rendered files.
RECORDED_RESULTS = "benchmarks/results/"

# The answers each shipped example is rendered with, by its folder in examples/. Every other answer
# takes its default, except the year, which is pinned so that an example does not change on New
# Year's Day. The first is the main example: the one `scaffold demo` builds and the README shows.
EXAMPLES: dict[str, dict[str, Any]] = {
    "generated_gelu": {
        "project_name": "Generated GELU",
        "package_name": "generated_gelu",
        "op_name": "fused_bias_gelu",
        "activation": "gelu_tanh",
        "copyright_year": 2026,
    },
    "generated_rmsnorm": {
        "project_name": "Generated RMSNorm",
        "package_name": "generated_rmsnorm",
        "op_name": "rms_norm",
        "family": "row_norm",
        "norm": "rms_norm",
        "copyright_year": 2026,
    },
}
EXAMPLE_DIR = EXAMPLES_ROOT / "generated_gelu"
EXAMPLE_ANSWERS = EXAMPLES["generated_gelu"]


def template_root() -> Path:
    if not (TEMPLATE_ROOT / "copier.yml").is_file():
        raise SystemExit(
            f"scaffold needs the template next to it, but {TEMPLATE_ROOT / 'copier.yml'} does not exist; "
            "install scaffold from a checkout of the repository (pip install -e .)"
        )
    return TEMPLATE_ROOT


def render(
    destination: Path,
    answers: Mapping[str, Any],
    *,
    quiet: bool = True,
    vcs_ref: str | None = None,
    answers_file: str = ANSWERS_FILE,
    template: Path | None = None,
) -> Path:
    """Render the template into `destination` with `answers` (the rest take their defaults).

    From a git checkout, copier renders HEAD plus uncommitted changes, so what is tested is what is
    on disk; `vcs_ref` renders that commit instead. Invalid answers raise ValueError with the
    validator's message. An `answers_file` other than .copier-answers.yml adds an operator to the
    project in `destination`, as `copier copy --answers-file .copier-answers.<op>.yml` does.
    `template`: another copy of the template (a repository with copier.yml) than this one.
    """
    root = template if template is not None else template_root()
    if vcs_ref is None and (root / ".git").exists():
        vcs_ref = "HEAD"
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Dirty template changes included automatically")
        copier.run_copy(
            str(root),
            str(destination),
            data=dict(answers),
            defaults=True,
            overwrite=True,
            quiet=quiet,
            vcs_ref=vcs_ref,
            answers_file=answers_file,
        )
    return destination


def example_answers(example: Path) -> Mapping[str, Any]:
    """The answers of the example whose folder (or a copy of it) has this name."""
    if example.name not in EXAMPLES:
        raise ValueError(f"{example.name} is not an example; the examples are {', '.join(EXAMPLES)}")
    return EXAMPLES[example.name]


def render_example(destination: Path = EXAMPLE_DIR, answers: Mapping[str, Any] | None = None) -> Path:
    """Render an example afresh into `destination`, replacing what was there.

    `answers` defaults to those of the example named like `destination` (examples/<name>).
    The example is committed in the same commit as the template that renders it, so its answers
    file cannot name that commit: it records the template as the repository root relative to the
    example (`_src_path: ../..`) and no `_commit`. Nothing else is changed.
    """
    with tempfile.TemporaryDirectory() as scratch:
        if answers is None:
            answers = example_answers(destination)
        rendered = render(Path(scratch) / "example", answers)
        answers = rendered / ANSWERS_FILE
        lines = answers.read_text().splitlines(keepends=True)
        kept = [line for line in lines if not line.startswith(("_commit:", "_src_path:"))]
        kept.insert(1, "_src_path: ../..\n")
        answers.write_text("".join(kept))
        recorded = Path(scratch) / "recorded"
        if (destination / RECORDED_RESULTS).is_dir():  # measurements, kept across renderings
            shutil.copytree(destination / RECORDED_RESULTS, recorded)
        if destination.exists():
            shutil.rmtree(destination)
        shutil.copytree(rendered, destination)
        if recorded.is_dir():
            shutil.copytree(recorded, destination / RECORDED_RESULTS, dirs_exist_ok=True)
            rendered_files = (rendered / RECORDED_RESULTS).rglob("*")
            for path in rendered_files:  # rendered files win over their recorded copies
                if path.is_file():
                    shutil.copy2(path, destination / RECORDED_RESULTS / path.relative_to(rendered / RECORDED_RESULTS))
    return destination


def _ignored(project: Path) -> pathspec.GitIgnoreSpec:
    """The project's own .gitignore: build outputs are not part of a rendering."""
    gitignore = project / ".gitignore"
    patterns = gitignore.read_text().splitlines() if gitignore.is_file() else []
    return pathspec.GitIgnoreSpec.from_lines(patterns)


def _files(project: Path) -> Iterator[str]:
    ignored = _ignored(project)
    for path in sorted(project.rglob("*")):
        relative = path.relative_to(project).as_posix()
        if path.is_file() and not ignored.match_file(relative):
            yield relative


def tree_differences(expected: Path, actual: Path) -> list[str]:
    """Files that differ between two project trees, one line each.

    Build outputs (the project's .gitignore) and recorded benchmark results are not compared.
    """
    expected_files, actual_files = set(_files(expected)), set(_files(actual))
    problems = [f"missing: {name}" for name in sorted(expected_files - actual_files)]
    problems += [
        f"unexpected: {name}" for name in sorted(actual_files - expected_files) if not name.startswith(RECORDED_RESULTS)
    ]
    problems += [
        f"differs: {name}"
        for name in sorted(expected_files & actual_files)
        if not filecmp.cmp(expected / name, actual / name, shallow=False)
    ]
    return problems


def example_differences(example: Path = EXAMPLE_DIR, answers: Mapping[str, Any] | None = None) -> list[str]:
    """How `example` differs from a fresh rendering of its answers (empty: up to date).

    `answers` defaults to those of the example named like `example` (examples/<name>).
    """
    if answers is None:
        answers = example_answers(example)
    with tempfile.TemporaryDirectory() as scratch:
        fresh = render_example(Path(scratch) / "fresh", answers)
        return tree_differences(fresh, example)
