"""copier update and several operators per project, with real tags in temporary git repositories.

Each test copies this repository's template into a fresh git repository tagged v0.1.0, generates
a project from the tag, lets its "owner" edit it, releases a v0.2.0 of the template, and updates.
"""

from __future__ import annotations

import gc
import hashlib
import keyword
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


# An operator's benchmark entry points, rendered for the bias + activation family only.
BENCH_TEMPLATE = "benchmarks/bench_{{op_name}}.py.jinja"
SANITIZE_TEMPLATE = "benchmarks/sanitize_{{op_name}}.py.jinja"
GRAIN = "constexpr int64_t kGrainElements = 32768;"
OWNER_GRAIN = "constexpr int64_t kGrainElements = 65536;  // owner: larger tasks"
TEMPLATE_GRAIN = "constexpr int64_t kGrainElements = 16384;  // v0.2.0"
CPU_LOOPS = "csrc/bias_activation/cpu.h"  # the family's, project-level


def test_update_keeps_the_owners_edits_and_brings_the_templates_changes(template_repo, generated):
    # The owner edits the CPU loops, the operator's tests and the README.
    edit(generated / CPU_LOOPS, GRAIN, OWNER_GRAIN)
    with (generated / "tests/test_my_op.py").open("a") as tests:
        tests.write('\n\ndef test_added_by_the_owner():\n    assert OPERATOR == "my_op"\n')
    with (generated / "README.md").open("a") as readme:
        readme.write("\n## Our notes\n\nWritten by the owner.\n")
    commit_all(generated, "owner's edits")

    # v0.2.0 changes the kernel line the owner changed, the README elsewhere, and a file the owner
    # did not touch.
    edit(template_repo.file(CPU_LOOPS + ".jinja"), GRAIN, TEMPLATE_GRAIN)
    edit(template_repo.file("README.md.jinja"), "## Test\n", "## Test\n\nA note added by the template v0.2.0.\n")
    edit(template_repo.file("csrc/{{op_name}}.cpp.jinja"), "// The operator", "// v0.2.0: the operator")
    template_repo.release("v0.2.0")

    template_repo.update(generated)

    answers = yaml.safe_load((generated / ".copier-answers.yml").read_text())
    assert answers["_commit"] == "v0.2.0"
    readme = (generated / "README.md").read_text()
    assert "Written by the owner." in readme and "A note added by the template v0.2.0." in readme
    assert "def test_added_by_the_owner" in (generated / "tests/test_my_op.py").read_text()
    assert (generated / "csrc/my_op.cpp").read_text().startswith("// v0.2.0: the operator my_op")

    # Both changed the same line: the file holds both versions between conflict markers.
    kernel = (generated / CPU_LOOPS).read_text()
    conflict = re.search(r"<<<<<<< before updating\n(.*?)=======\n(.*?)>>>>>>> after updating\n", kernel, re.S)
    assert conflict and OWNER_GRAIN in conflict.group(1) and TEMPLATE_GRAIN in conflict.group(2)
    assert f"UU {CPU_LOOPS}" in git(generated, "status", "--short")

    # The owner resolves it (keeping their line), and the project builds and passes its tests.
    (generated / CPU_LOOPS).write_text(kernel.replace(conflict.group(0), conflict.group(1)))
    commit_all(generated, "update to the template v0.2.0")
    project.build(generated)
    project.run_tests(generated, ["-k", "cpu"])
    project.run_tests(generated, ["tests/test_my_op.py::test_added_by_the_owner"])


def test_deleted_and_renamed_files_are_left_alone(template_repo, generated):
    git(generated, "rm", "-q", "benchmarks/sanitize_my_op.py")
    git(generated, "mv", "benchmarks/bench_my_op.py", "benchmarks/benchmark_my_op.py")
    commit_all(generated, "owner deletes one generated file and renames another")
    edit(template_repo.file(SANITIZE_TEMPLATE), '"""compute', '"""v0.2.0: compute')
    edit(template_repo.file(BENCH_TEMPLATE), '"""Benchmark', '"""v0.2.0: Benchmark')
    template_repo.release("v0.2.0")

    template_repo.update(generated)

    # Deleted stays deleted, and the renamed file keeps its name and content: the template's
    # changes to either do not arrive (README: "Updating from the template").
    assert not (generated / "benchmarks/sanitize_my_op.py").exists()
    assert not (generated / "benchmarks/bench_my_op.py").exists()
    assert "v0.2.0" not in (generated / "benchmarks/benchmark_my_op.py").read_text()
    assert git(generated, "status", "--short").strip() == "M .copier-answers.yml"


def test_an_answer_changed_at_update_re_renders_the_math(template_repo, generated, tmp_path):
    template_repo.update(generated, data={"activation": "silu"})

    answers = yaml.safe_load((generated / ".copier-answers.yml").read_text())
    assert answers["activation"] == "silu" and answers["op_name"] == "my_op"  # names do not move
    assert "return h * sigmoid_(h);" in (generated / "csrc/my_op.h").read_text()
    assert "F.silu(x + bias)" in (generated / "src/fused_bias_activation/ops/my_op.py").read_text()
    # Exactly the project that copying with the same answers gives (test_installs.py builds and tests
    # one); the description, an answer recorded at the copy, keeps its words.
    same_answers = {key: answers[key] for key in ("op_name", "activation", "description")}
    fresh = template_repo.copy(tmp_path / "fresh", same_answers, vcs_ref="v0.1.0")
    differences = render.tree_differences(fresh, generated)
    assert [line for line in differences if not line.startswith("unexpected: .git/")] == []


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


# csrc/my_op.cpp as an owner who needs a CPU kernel unlike the family's writes it (README:
# "Which file to edit"): a plain loop in double precision, registered for the CPU key.
OWNERS_CPU_KERNEL = r"""
#include "my_op.h"

#include <ATen/ops/empty.h>
#include <ATen/ops/zeros.h>

#include "bias_activation/checks.h"
#include "bias_activation/operator.h"

namespace {
using fused_bias_activation::activations::MyOp;
using fused_bias_activation::bias_activation::check_inputs;

at::Tensor owners_forward(const at::Tensor& x_in, const at::Tensor& bias_in) {
  check_inputs("my_op", x_in, bias_in);
  const at::Tensor x = x_in.to(at::kDouble).contiguous();
  const at::Tensor bias = bias_in.to(at::kDouble).contiguous();
  at::Tensor y = at::empty(x.sizes(), x.options());
  const int64_t cols = x.size(-1);
  const double* xs = x.const_data_ptr<double>();
  const double* bs = bias.const_data_ptr<double>();
  double* ys = y.mutable_data_ptr<double>();
  for (int64_t i = 0; i < x.numel(); ++i) ys[i] = MyOp<double>::forward(xs[i] + bs[i % cols]);
  return y.to(x_in.scalar_type());
}

std::tuple<at::Tensor, at::Tensor> owners_backward(const at::Tensor& grad_out_in, const at::Tensor& x_in,
                                                   const at::Tensor& bias_in) {
  check_inputs("my_op", x_in, bias_in, grad_out_in);
  const at::Tensor g = grad_out_in.to(at::kDouble).contiguous();
  const at::Tensor x = x_in.to(at::kDouble).contiguous();
  const at::Tensor bias = bias_in.to(at::kDouble).contiguous();
  at::Tensor grad_x = at::empty(x.sizes(), x.options());
  at::Tensor grad_bias = at::zeros(bias.sizes(), bias.options());
  const int64_t cols = x.size(-1);
  const double* gs = g.const_data_ptr<double>();
  const double* xs = x.const_data_ptr<double>();
  const double* bs = bias.const_data_ptr<double>();
  double* gx = grad_x.mutable_data_ptr<double>();
  double* gb = grad_bias.mutable_data_ptr<double>();
  for (int64_t i = 0; i < x.numel(); ++i) {
    gx[i] = gs[i] * MyOp<double>::backward(xs[i] + bs[i % cols]);
    gb[i % cols] += gx[i];
  }
  return {grad_x.to(x_in.scalar_type()), grad_bias.to(bias_in.scalar_type())};
}
}  // namespace

TORCH_LIBRARY_FRAGMENT(fused_bias_activation, m) {
  fused_bias_activation::bias_activation::define_schemas<MyOp>(m);
  fused_bias_activation::bias_activation::register_autograd<MyOp>(m);
}

TORCH_LIBRARY_IMPL(fused_bias_activation, CPU, m) {
  m.impl("my_op", &owners_forward);
  m.impl("my_op_backward", &owners_backward);
}
"""


def test_a_second_operator_is_added_built_and_updated_on_its_own(template_repo, generated):
    project_files, first_op_files = project_and_first_operator_files(generated)
    assert "benchmarks/jit_rebuild.py" in project_files and "csrc/my_op_cuda.cu" in first_op_files
    # The owner edits a project-level file: adding an operator must not touch it (no conflict).
    edit(generated / "benchmarks/jit_rebuild.py", '"""How long', '"""Owner\'s note. How long')
    commit_all(generated, "owner's edit of a project-level file")
    before = digest(generated, project_files + first_op_files)
    template_repo.copy(
        generated,
        {"op_name": "bias_gelu", "activation": "gelu"},
        answers_file=".copier-answers.bias_gelu.yml",
        vcs_ref="v0.1.0",
    )
    assert digest(generated, project_files + first_op_files) == before  # nothing project-wide touched
    answers = yaml.safe_load((generated / ".copier-answers.bias_gelu.yml").read_text())
    assert answers["op_name"] == "bias_gelu" and answers["package_name"] == "fused_bias_activation"
    # The operator's own files instantiate the family's machinery; they repeat none of it.
    assert "BIAS_ACTIVATION_OPERATOR(fused_bias_activation, BiasGelu)" in (generated / "csrc/bias_gelu.cpp").read_text()
    assert (
        "BIAS_ACTIVATION_CUDA_KERNELS(fused_bias_activation, BiasGelu)"
        in (generated / "csrc/bias_gelu_cuda.cu").read_text()
    )
    commit_all(generated, "add the bias_gelu operator")
    # The owner gives the first operator a CPU kernel of its own, in its own file, with the family's
    # schema and autograd formula and the project's helpers: the family's tests then test that kernel.
    (generated / "csrc/my_op.cpp").write_text(OWNERS_CPU_KERNEL)
    commit_all(generated, "my_op's own CPU kernel")
    before = digest(generated, project_files + first_op_files)

    # No other hand edit: the build finds the new sources and the package imports the new module.
    project.build(generated)
    project.run_tests(generated, ["-k", "cpu"])
    imported = subprocess.run(
        ["python", "-c", "import fused_bias_activation as p; print(p.my_op.__name__, p.bias_gelu.__name__)"],
        cwd=generated / "src",  # built in place, not installed
        capture_output=True,
        text=True,
        check=True,
    )
    assert imported.stdout.split() == ["my_op", "bias_gelu"]

    # A template change to an operator's files reaches only the operator that is updated. An added
    # operator is updated after the project (its files need the project-level files of their version).
    edit(template_repo.file(BENCH_TEMPLATE), '"""Benchmark', '"""v0.2.0: Benchmark')
    template_repo.release("v0.2.0")
    git(generated, "clean", "-fdqX")  # build outputs are ignored; copier wants a clean tree anyway
    with pytest.raises(ValueError, match="is at the template's version v0.1.0 .* update the project first"):
        template_repo.update(generated, answers_file=".copier-answers.bias_gelu.yml")
    git(generated, "reset", "-q", "--hard")
    template_repo.update(generated)
    assert (generated / "benchmarks/bench_my_op.py").read_text().startswith('"""v0.2.0: Benchmark')
    assert not (generated / "benchmarks/bench_bias_gelu.py").read_text().startswith('"""v0.2.0')
    commit_all(generated, "update to v0.2.0")
    before = digest(generated, project_files + first_op_files)
    template_repo.update(generated, answers_file=".copier-answers.bias_gelu.yml")
    assert (generated / "benchmarks/bench_bias_gelu.py").read_text().startswith('"""v0.2.0: Benchmark')
    assert digest(generated, project_files + first_op_files) == before


# Words that keep their meaning in a shape: two lines that differ in them are not alike.
KEYWORDS = set(keyword.kwlist) | set(
    "auto bool case class const constexpr double else float for if inline int int64_t namespace operator "
    "private public return static struct switch template typename using void while".split()
)


def shapes(text: str) -> list[str]:
    """The lines of a source file reduced to their shape, as a reader comparing two files sees them:
    comments, blank lines, imports, includes and lone punctuation dropped; every string (docstrings
    included) '$', every name that is not a keyword 'N', every number '0', spaces folded."""
    text = re.sub(r'""".*?"""|"(?:[^"\\\n]|\\.)*"', "$", text, flags=re.S)
    text = re.sub(r"//[^\n]*|#(?!include|pragma|define)[^\n]*", "", text)
    lines = []
    for line in text.splitlines():
        line = line.strip()
        if re.match(r"(import|from|#include|#pragma) ", line):
            continue
        line = re.sub(r"\b\d[\w.]*", "0", line)
        line = re.sub(r"\b[A-Za-z_]\w*\b", lambda word: word[0] if word[0] in KEYWORDS else "N", line)
        line = " ".join(line.split())
        if re.search(r"\w|\$", line):
            lines.append(line)
    return lines


def nonblank_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def longest_shared_run(a: list[str], b: list[str]) -> int:
    longest, previous = 0, [0] * (len(b) + 1)
    for line in a:
        current = [0] * (len(b) + 1)
        for j, other in enumerate(b):
            if line == other:
                current[j + 1] = previous[j] + 1
                longest = max(longest, current[j + 1])
        previous = current
    return longest


def test_the_shape_comparison_finds_code_repeated_with_other_names():
    loop = "for (int64_t i = 0; i < n; ++i) {\n  y[i] = f(x[i] + b[i % n]);\n}\n"
    first = "// one\n#include <a.h>\nint first(int n) {\n" + loop + "  return 1;\n}\n"
    second = "int second(int m) {\n" + loop.replace("x[", "z[").replace("f(", "g(") + "  return 2;\n}\n"
    assert longest_shared_run(shapes(first), shapes(second)) == 4  # the signature, the loop, the return
    assert shapes('"""Doc\nstring."""\nimport os\nx = 1  # note\n') == ["$", "N = 0"]


def test_a_second_operator_adds_only_its_own_lines(template_repo, generated):
    """Issue 10's bar: at most 300 lines, and no run of 6 lines in both operators' files, neither of
    identical lines (comments included) nor of code of one shape with other names."""
    template_repo.copy(
        generated,
        {"op_name": "bias_silu", "activation": "silu"},
        answers_file=".copier-answers.bias_silu.yml",
        vcs_ref="v0.1.0",
    )
    git(generated, "add", "-A")
    added = [line.split("\t") for line in git(generated, "diff", "--cached", "--numstat").splitlines()]
    # Only the operator's own files, its answers file (.copier-answers.bias_silu.yml) included.
    assert all("bias_silu" in path for _, _, path in added), added
    assert sum(int(count) for count, _, _ in added) <= 300
    first = [path for path in rendered_files(generated) if "my_op" in path]
    second = [path for _, _, path in added if path.endswith((".py", ".h", ".cpp", ".cu"))]
    assert len(first) == len(second) == 7
    for path in first:
        for other in second:
            texts = (generated / path).read_text(), (generated / other).read_text()
            run = longest_shared_run(*map(shapes, texts))
            assert run < 6, f"{path} and {other} share {run} lines of one shape"
            run = longest_shared_run(*(nonblank_lines(text) for text in texts))  # comments and imports too
            assert run < 6, f"{path} and {other} share {run} identical lines"


def test_an_operator_name_the_project_has_does_not_replace_it_without_a_terminal(template_repo, generated):
    """An op_name that an operator of the project already has (under another answers file) is not
    refused up front: copier meets a conflict on that operator's files and, without a terminal,
    stops (in a terminal it asks, as the README says). That operator's files stay as they were."""
    answers = {"op_name": "bias_silu", "activation": "silu"}
    template_repo.copy(generated, answers, answers_file=".copier-answers.bias_silu.yml", vcs_ref="v0.1.0")
    commit_all(generated, "add bias_silu")
    operator = [path for path in rendered_files(generated) if "bias_silu" in path]
    before = digest(generated, operator)
    again = {"op_name": "bias_silu", "activation": "relu"}
    # Copier, stopped there, leaves directory iterators unclosed (a ResourceWarning, which Python does
    # not show by default): ignored here, and collected before this test's filters end.
    warnings.simplefilter("ignore", ResourceWarning)
    with pytest.raises(Exception, match="Interactive session required") as stop:
        template_repo.copy(generated, again, answers_file=".copier-answers.again.yml", vcs_ref="v0.1.0")
    del stop
    gc.collect()
    assert digest(generated, operator) == before


def test_an_added_operator_must_use_the_projects_package(template_repo, generated):
    with pytest.raises(ValueError, match="package_name must be the project's, 'fused_bias_activation'"):
        template_repo.copy(
            generated, {"op_name": "other", "package_name": "elsewhere"}, answers_file=".copier-answers.other.yml"
        )


def test_an_operator_is_added_only_at_the_projects_template_version(template_repo, generated):
    """A newer template's operator needs the newer project-level files: refused with what to do, which works."""
    edit(template_repo.file(CPU_LOOPS + ".jinja"), GRAIN, TEMPLATE_GRAIN)
    template_repo.release("v0.2.0")
    answers = {"op_name": "bias_relu", "activation": "relu"}
    with pytest.raises(ValueError, match="is at the template's version v0.1.0 .* and this renders v0.2.0") as refusal:
        template_repo.copy(generated, answers, answers_file=".copier-answers.bias_relu.yml")
    assert "--vcs-ref v0.1.0" in str(refusal.value)
    assert not (generated / "csrc/bias_relu.h").exists()
    # Either of the two ways the message names.
    template_repo.copy(generated, answers, answers_file=".copier-answers.bias_relu.yml", vcs_ref="v0.1.0")
    assert GRAIN in (generated / CPU_LOOPS).read_text()
    git(generated, "reset", "-q", "--hard")
    git(generated, "clean", "-qfd")
    template_repo.update(generated)
    commit_all(generated, "update to v0.2.0")
    template_repo.copy(generated, answers, answers_file=".copier-answers.bias_relu.yml")
    assert TEMPLATE_GRAIN in (generated / CPU_LOOPS).read_text()
    assert yaml.safe_load((generated / ".copier-answers.bias_relu.yml").read_text())["_commit"] == "v0.2.0"


@pytest.mark.parametrize("made_at", ["untagged", "after_a_tag"])
def test_an_operator_is_added_at_the_projects_commit_once_it_is_tagged(template_repo, tmp_path, made_at):
    """git describe names an untagged commit by its hash (or as v0.1.0-1-g<hash> after a tag), and by
    its tag once it has one: a project made before the tag records the other name of the commit
    that adding an operator now renders, which is not refused."""
    if made_at == "untagged":
        git(template_repo.root, "tag", "-d", "v0.1.0")
    else:
        git(template_repo.root, "commit", "-q", "--allow-empty", "-m", "after v0.1.0")
    project = template_repo.copy(tmp_path / "project", {"op_name": "my_op"}, vcs_ref="HEAD")
    recorded = yaml.safe_load((project / ".copier-answers.yml").read_text())["_commit"]
    assert re.fullmatch("[0-9a-f]{7,40}" if made_at == "untagged" else r"v0\.1\.0-1-g[0-9a-f]{7,40}", recorded)
    git(project, "init", "-q")
    commit_all(project, "generated")
    git(template_repo.root, "tag", "v0.1.1")  # the commit the project was made from
    answers = {"op_name": "bias_relu", "activation": "relu"}
    template_repo.copy(project, answers, answers_file=".copier-answers.bias_relu.yml")
    assert (project / "csrc/bias_relu.h").is_file()
    assert yaml.safe_load((project / ".copier-answers.bias_relu.yml").read_text())["_commit"] == "v0.1.1"


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


# The template's last commit before the bias + activation family's machinery became shared: its
# projects hold each operator's CPU loops, autograd formula, tests and benchmark in the operator's
# own files. CHANGELOG.md ("Projects generated before the family layout") says what their owners do.
BEFORE_FAMILIES = "ec1a5ba4e3778c9e7d6a2a56147bb2513cfbfe1d"
OLD_GRAIN = "32768 / std::max<int64_t>(cols, 1));"
OWNER_OLD_GRAIN = "65536 / std::max<int64_t>(cols, 1));  // owner: larger tasks"
OWNER_TEST = '\n\ndef test_added_by_the_owner():\n    assert fused_bias_activation.my_op.__name__ == "my_op"\n'


def template_repo_at(commit: str, root: Path) -> TemplateRepo:
    """A TemplateRepo whose v0.1.0 is this repository's template at an earlier commit."""
    archive = subprocess.run(
        ["git", "-C", str(render.TEMPLATE_ROOT), "archive", commit, "copier.yml", "template"], capture_output=True
    )
    assert archive.returncode == 0, f"needs this repository's git history (a full clone): {archive.stderr.decode()}"
    root.mkdir()
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)
    repo = TemplateRepo.__new__(TemplateRepo)
    repo.root = root
    git(root, "init", "-q")
    repo.release("v0.1.0")
    return repo


def test_a_project_generated_before_the_family_layout_updates_to_it(tmp_path):
    template_repo = template_repo_at(BEFORE_FAMILIES, tmp_path / "template-repo")
    generated = template_repo.copy(tmp_path / "project", {"op_name": "my_op"}, vcs_ref="v0.1.0")
    git(generated, "init", "-q")
    commit_all(generated, "generated")
    template_repo.copy(
        generated, {"op_name": "bias_relu", "activation": "relu"}, answers_file=".copier-answers.bias_relu.yml"
    )
    commit_all(generated, "add the bias_relu operator")
    # The owner edits the operator's CPU kernel, adds a test, adds to the README, and builds.
    edit(generated / "csrc/my_op_cpu.cpp", OLD_GRAIN, OWNER_OLD_GRAIN)
    with (generated / "tests/test_my_op.py").open("a") as tests:
        tests.write(OWNER_TEST)
    with (generated / "README.md").open("a") as readme:
        readme.write("\n## Our notes\n\nWritten by the owner.\n")
    commit_all(generated, "owner's edits")
    # What the old in-place build left in src/ (git-ignored): the library under its old name.
    stale_library = generated / "src/fused_bias_activation/_C.abi3.so"
    stale_library.write_bytes(b"the library of the old build")

    # This template is the new release.
    shutil.rmtree(template_repo.root / "template")
    shutil.copytree(render.TEMPLATE_ROOT / "template", template_repo.root / "template")
    shutil.copy(render.TEMPLATE_ROOT / "copier.yml", template_repo.root / "copier.yml")
    template_repo.release("v0.2.0")

    # The project and its first operator.
    template_repo.update(generated)
    status = git(generated, "status", "--short").splitlines()
    # Files the template no longer has are deleted even where the owner edited them; the owner's
    # version stays in git.
    assert {" D csrc/my_op_cpu.cpp", " D csrc/my_op_autograd.cpp"} <= set(status)
    # The files the owner edited where the template changed too: the test file, and the README,
    # whose last section the owner's notes follow.
    assert [line for line in status if line.startswith("UU")] == ["UU README.md", "UU tests/test_my_op.py"]
    assert OWNER_OLD_GRAIN in git(generated, "show", "HEAD:csrc/my_op_cpu.cpp")
    # The CHANGELOG's steps: each conflicted file becomes the new one, with the owner's additions
    # appended (and the names the owner's tests use imported); the owner's kernel change moves to the
    # family's CPU loops.
    git(generated, "checkout", "--theirs", "--", "tests/test_my_op.py", "README.md")
    with (generated / "tests/test_my_op.py").open("a") as tests:
        tests.write("\nimport fused_bias_activation  # noqa: E402" + OWNER_TEST)
    with (generated / "README.md").open("a") as readme:
        readme.write("\n## Our notes\n\nWritten by the owner.\n")
    edit(generated / CPU_LOOPS, GRAIN, OWNER_GRAIN)
    commit_all(generated, "update to v0.2.0")

    # Each added operator.
    template_repo.update(generated, answers_file=".copier-answers.bias_relu.yml")
    status = git(generated, "status", "--short").splitlines()
    assert {" D csrc/bias_relu_cpu.cpp", " D csrc/bias_relu_autograd.cpp"} <= set(status)
    assert not [line for line in status if line.startswith("UU")]
    commit_all(generated, "update bias_relu to v0.2.0")
    assert not (generated / "csrc/my_op_cpu.cpp").exists()
    assert "BIAS_ACTIVATION_OPERATOR(fused_bias_activation, BiasRelu)" in (generated / "csrc/bias_relu.cpp").read_text()

    # Rebuilt in place, over the old library, it passes its tests, the owner's included.
    project.build(generated)
    built = sorted(path.name.split(".")[0] for path in stale_library.parent.glob("_C*.so"))
    assert len(built) == 1 and (built == ["_C"] or not stale_library.exists()), built
    project.run_tests(generated, ["-k", "cpu"])
    project.run_tests(generated, ["tests/test_my_op.py::test_added_by_the_owner"])
    assert OWNER_GRAIN in (generated / CPU_LOOPS).read_text()
    assert "Written by the owner." in (generated / "README.md").read_text()
