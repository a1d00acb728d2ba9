"""copier update and several operators per project, with real tags in temporary git repositories.

Each test copies this repository's template into a fresh git repository tagged v0.1.0, generates
a project from the tag, lets its "owner" edit it, releases a v0.2.0 of the template, and updates.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import copier
import jinja2
import pathspec
import pytest
import yaml

from scaffold import project, render

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
}


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch):
    for key, value in GIT_IDENTITY.items():
        monkeypatch.setenv(key, value)


@pytest.fixture(autouse=True)
def _no_warnings():
    """Copy, update and adding an operator print no warning: any warning fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for hidden in (DeprecationWarning, PendingDeprecationWarning):  # not shown to users by default
            warnings.simplefilter("ignore", hidden)
        yield


def git(directory: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=directory, check=True, capture_output=True, text=True).stdout


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


class TemplateRepo:
    """A copy of this repository's template in its own git repository, released with tags."""

    def __init__(self, root: Path):
        self.root = root
        shutil.copy(render.TEMPLATE_ROOT / "copier.yml", root / "copier.yml")
        shutil.copytree(render.TEMPLATE_ROOT / "template", root / "template")
        git(root, "init", "-q")
        self.release("v0.1.0")

    def file(self, relative: str) -> Path:
        return self.root / "template" / relative

    def release(self, tag: str) -> None:
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "--allow-empty", "-m", f"release {tag}")
        git(self.root, "tag", tag)

    def copy(self, destination: Path, answers: dict, **options) -> Path:
        copier.run_copy(str(self.root), str(destination), data=answers, defaults=True, quiet=True, **options)
        return destination

    def update(self, destination: Path, **options) -> None:
        options.setdefault("defaults", True)
        copier.run_update(str(destination), overwrite=True, quiet=True, conflict="inline", **options)


def commit_all(directory: Path, message: str) -> None:
    git(directory, "add", "-A")
    git(directory, "commit", "-q", "-m", message)


def digest(directory: Path, relative_paths: list[str]) -> dict[str, str]:
    return {path: hashlib.sha256((directory / path).read_bytes()).hexdigest() for path in relative_paths}


@pytest.fixture
def template_repo(tmp_path) -> TemplateRepo:
    root = tmp_path / "template-repo"
    root.mkdir()
    return TemplateRepo(root)


@pytest.fixture
def generated(template_repo, tmp_path) -> Path:
    """A project generated from v0.1.0 and committed, as its owner would."""
    destination = template_repo.copy(tmp_path / "project", {"op_name": "my_op"}, vcs_ref="v0.1.0")
    git(destination, "init", "-q")
    commit_all(destination, "generated from the template v0.1.0")
    return destination


GRAIN = "32768 / std::max<int64_t>(cols, 1));"
OWNER_GRAIN = "65536 / std::max<int64_t>(cols, 1));  // owner: larger tasks"
TEMPLATE_GRAIN = "16384 / std::max<int64_t>(cols, 1));  // v0.2.0"


def test_update_keeps_the_owners_edits_and_brings_the_templates_changes(template_repo, generated):
    # The owner edits a kernel, the tests and the README.
    edit(generated / "csrc/my_op_cpu.cpp", GRAIN, OWNER_GRAIN)
    with (generated / "tests/test_my_op.py").open("a") as tests:
        tests.write("\n\ndef test_added_by_the_owner():\n    assert op is not None\n")
    with (generated / "README.md").open("a") as readme:
        readme.write("\n## Our notes\n\nWritten by the owner.\n")
    commit_all(generated, "owner's edits")

    # v0.2.0 changes the kernel line the owner changed, the README elsewhere, and a file the owner
    # did not touch.
    edit(template_repo.file("csrc/{{op_name}}_cpu.cpp.jinja"), GRAIN, TEMPLATE_GRAIN)
    edit(template_repo.file("README.md.jinja"), "## Test\n", "## Test\n\nA note added by the template v0.2.0.\n")
    edit(template_repo.file("csrc/{{op_name}}.cpp.jinja"), "// Schema and argument", "// v0.2.0: schema and argument")
    template_repo.release("v0.2.0")

    template_repo.update(generated)

    answers = yaml.safe_load((generated / ".copier-answers.yml").read_text())
    assert answers["_commit"] == "v0.2.0"
    readme = (generated / "README.md").read_text()
    assert "Written by the owner." in readme and "A note added by the template v0.2.0." in readme
    assert "def test_added_by_the_owner" in (generated / "tests/test_my_op.py").read_text()
    assert (generated / "csrc/my_op.cpp").read_text().startswith("// v0.2.0: schema and argument")

    # Both changed the same line: the file holds both versions between conflict markers.
    kernel = (generated / "csrc/my_op_cpu.cpp").read_text()
    conflict = re.search(r"<<<<<<< before updating\n(.*?)=======\n(.*?)>>>>>>> after updating\n", kernel, re.S)
    assert conflict and OWNER_GRAIN in conflict.group(1) and TEMPLATE_GRAIN in conflict.group(2)
    assert "UU csrc/my_op_cpu.cpp" in git(generated, "status", "--short")

    # The owner resolves it (keeping their line), and the project builds and passes its tests.
    (generated / "csrc/my_op_cpu.cpp").write_text(kernel.replace(conflict.group(0), conflict.group(1)))
    commit_all(generated, "update to the template v0.2.0")
    project.build(generated)
    project.run_tests(generated, ["-k", "cpu"])


def test_deleted_and_renamed_files_are_left_alone(template_repo, generated):
    git(generated, "rm", "-q", "benchmarks/sanitize_my_op.py")
    git(generated, "mv", "benchmarks/bench_my_op.py", "benchmarks/benchmark_my_op.py")
    commit_all(generated, "owner deletes one generated file and renames another")
    edit(template_repo.file("benchmarks/sanitize_{{op_name}}.py.jinja"), '"""A small', '"""v0.2.0: a small')
    edit(template_repo.file("benchmarks/bench_{{op_name}}.py.jinja"), '"""Benchmark', '"""v0.2.0: Benchmark')
    template_repo.release("v0.2.0")

    template_repo.update(generated)

    # Deleted stays deleted, and the renamed file keeps its name and content: the template's
    # changes to either do not arrive (README: "Updating from the template").
    assert not (generated / "benchmarks/sanitize_my_op.py").exists()
    assert not (generated / "benchmarks/bench_my_op.py").exists()
    assert "v0.2.0" not in (generated / "benchmarks/benchmark_my_op.py").read_text()
    assert git(generated, "status", "--short").strip() == "M .copier-answers.yml"


def test_an_answer_changed_at_update_re_renders_the_math(template_repo, generated):
    template_repo.update(generated, data={"activation": "silu"})

    answers = yaml.safe_load((generated / ".copier-answers.yml").read_text())
    assert answers["activation"] == "silu" and answers["op_name"] == "my_op"  # names do not move
    assert "SiLU (swish): h * sigmoid(h)." in (generated / "csrc/my_op.h").read_text()
    assert "F.silu(x + bias)" in (generated / "src/fused_bias_activation/ops/my_op.py").read_text()
    commit_all(generated, "switch to silu")
    project.build(generated)
    project.run_tests(generated, ["-k", "cpu"])


def test_a_question_added_later_takes_its_default_without_asking(template_repo, generated):
    with (template_repo.root / "copier.yml").open("a") as config:
        config.write('\nissue_tracker:\n  type: str\n  help: Where bugs are reported\n  default: "none yet"\n')
    edit(template_repo.file("README.md.jinja"), "## Build\n", "Bugs: {{ issue_tracker }}.\n\n## Build\n")
    template_repo.release("v0.2.0")

    template_repo.update(generated)  # --defaults: nothing is asked

    answers = yaml.safe_load((generated / ".copier-answers.yml").read_text())
    assert answers["issue_tracker"] == "none yet" and answers["op_name"] == "my_op"
    assert "Bugs: none yet." in (generated / "README.md").read_text()


def project_level_spec(package_name: str) -> pathspec.GitIgnoreSpec:
    """The project-level paths, from the one list that copier.yml's _exclude uses too."""
    config = yaml.safe_load((render.TEMPLATE_ROOT / "copier.yml").read_text())
    rendered = jinja2.Template(config["project_files"]["default"]).render(package_name=package_name)
    return pathspec.GitIgnoreSpec.from_lines(yaml.safe_load(rendered))


def rendered_files(directory: Path) -> list[str]:
    return sorted(
        path.relative_to(directory).as_posix()
        for path in directory.rglob("*")
        if path.is_file() and ".git" not in path.relative_to(directory).parts
    )


def test_every_rendered_path_not_named_after_the_operator_is_project_level(render_project):
    project = render_project(op_name="my_op", package_name="pkg")
    spec = project_level_spec("pkg")
    for path in rendered_files(project):
        if path == ".copier-answers.yml":
            continue  # the answers file is the project's by its name, the operator's by another
        named_after_the_operator = "my_op" in path
        assert spec.match_file(path) != named_after_the_operator, path


PACKAGE = "fused_bias_activation"  # the package of the `generated` project


def project_and_first_operator_files(directory: Path) -> tuple[list[str], list[str]]:
    spec = project_level_spec(PACKAGE)
    files = rendered_files(directory)
    return [f for f in files if spec.match_file(f) or f == ".copier-answers.yml"], [f for f in files if "my_op" in f]


def test_a_second_operator_is_added_built_and_updated_on_its_own(template_repo, generated):
    project_files, first_op_files = project_and_first_operator_files(generated)
    assert "benchmarks/jit_rebuild.py" in project_files and "csrc/my_op_cuda.cu" in first_op_files
    # The owner edits a project-level file: adding an operator must not touch it (no conflict).
    edit(generated / "benchmarks/jit_rebuild.py", '"""How long', '"""Owner\'s note. How long')
    commit_all(generated, "owner's edit of a project-level file")
    before = digest(generated, project_files + first_op_files)
    template_repo.copy(
        generated,
        {"op_name": "bias_relu", "activation": "relu"},
        answers_file=".copier-answers.bias_relu.yml",
        vcs_ref="v0.1.0",
    )
    assert digest(generated, project_files + first_op_files) == before  # nothing project-wide touched
    answers = yaml.safe_load((generated / ".copier-answers.bias_relu.yml").read_text())
    assert answers["op_name"] == "bias_relu" and answers["package_name"] == "fused_bias_activation"
    assert 'm.def("bias_relu(Tensor x, Tensor bias) -> Tensor");' in (generated / "csrc/bias_relu.cpp").read_text()
    assert "TORCH_LIBRARY_FRAGMENT(fused_bias_activation, m)" in (generated / "csrc/bias_relu.cpp").read_text()
    commit_all(generated, "add the bias_relu operator")

    # No hand edits: the build finds the new sources and the package imports the new module.
    project.build(generated)
    project.run_tests(generated, ["-k", "cpu"])
    imported = subprocess.run(
        ["python", "-c", "import fused_bias_activation as p; print(p.my_op.__name__, p.bias_relu.__name__)"],
        cwd=generated / "src",  # built in place, not installed
        capture_output=True,
        text=True,
        check=True,
    )
    assert imported.stdout.split() == ["my_op", "bias_relu"]

    # A template change to an operator's files reaches only the operator that is updated.
    edit(template_repo.file("benchmarks/bench_{{op_name}}.py.jinja"), '"""Benchmark', '"""v0.2.0: Benchmark')
    template_repo.release("v0.2.0")
    git(generated, "clean", "-fdqX")  # build outputs are ignored; copier wants a clean tree anyway
    template_repo.update(generated, answers_file=".copier-answers.bias_relu.yml")
    assert (generated / "benchmarks/bench_bias_relu.py").read_text().startswith('"""v0.2.0: Benchmark')
    assert digest(generated, project_files + first_op_files) == before


def test_an_added_operator_must_use_the_projects_package(template_repo, generated):
    with pytest.raises(ValueError, match="package_name must be the project's, 'fused_bias_activation'"):
        template_repo.copy(
            generated, {"op_name": "other", "package_name": "elsewhere"}, answers_file=".copier-answers.other.yml"
        )


def test_the_readme_lifecycle_commands_work_as_written(template_repo, tmp_path):
    """Runs the README's "Project lifecycle" block with TEMPLATE set to a tagged template."""
    readme = (render.TEMPLATE_ROOT / "README.md").read_text()
    block = re.search(r"## Project lifecycle\n.*?```bash\n(.*?)```", readme, re.S).group(1)
    workdir = tmp_path / "work"
    workdir.mkdir()
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", block],
        cwd=workdir,
        env={**os.environ, "TEMPLATE": str(template_repo.root)},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert (workdir / "my_project/.copier-answers.bias_relu.yml").is_file()
    assert "Warning" not in result.stderr, result.stderr  # copy, add and update print no warning
    # The project's message once, at the copy; adding an operator says so instead.
    assert result.stderr.count("is ready in") == 1 and "::bias_relu added to the project" in result.stderr
