"""The row normalization family: its questions, its renderings, and a project that holds an operator
of each family (built, tested on the CPU, updated)."""

from __future__ import annotations

import py_compile
import re

import pytest
import yaml
from test_lifecycle import GIT_IDENTITY, TemplateRepo, commit_all, edit, git

from scaffold import project

LEFTOVER_JINJA = re.compile(r"\{\{|\{%|\{#")
NORM_ANSWERS = [
    {"family": "row_norm"},
    {"family": "row_norm", "zero_centered_weight": True},
    {"family": "row_norm", "norm": "layer_norm"},
    {"family": "row_norm", "residual_add": True},
    {"family": "row_norm", "norm": "layer_norm", "residual_add": True},
]
NORM_IDS = ["rms_norm", "gemma_rms_norm", "layer_norm", "fused_add_rms_norm", "fused_add_layer_norm"]


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch):
    for key, value in GIT_IDENTITY.items():
        monkeypatch.setenv(key, value)


@pytest.mark.parametrize("answers", NORM_ANSWERS, ids=NORM_IDS)
def test_each_norm_renders_its_operator(render_project, answers):
    rendered = render_project(**answers)
    answers_file = yaml.safe_load((rendered / ".copier-answers.yml").read_text())
    op_name, package = answers_file["op_name"], answers_file["package_name"]
    # The project's default name follows from the family and the norm.
    assert package == ("fused_layernorm" if answers.get("norm") == "layer_norm" else "fused_rmsnorm")
    assert op_name == dict(zip(map(str, NORM_ANSWERS), NORM_IDS, strict=True))[str(answers)]
    for path in (p for p in rendered.rglob("*") if p.is_file()):
        relative = path.relative_to(rendered).as_posix()
        assert not LEFTOVER_JINJA.search(relative) and not LEFTOVER_JINJA.search(path.read_text()), relative
        if path.suffix == ".py":
            py_compile.compile(str(path), doraise=True, cfile=str(path) + ".check")
            path.with_name(path.name + ".check").unlink()
    operator_files = (f"csrc/{op_name}.h", f"csrc/{op_name}.cpp", f"src/{package}/ops/{op_name}.py")
    for expected in (*operator_files, f"csrc/{op_name}_cuda.cu", f"tests/test_{op_name}.py"):
        assert (rendered / expected).is_file(), expected
    # The family's benchmark and sanitizer workload, through the operator's entry points.
    for entry in (f"benchmarks/bench_{op_name}.py", f"benchmarks/sanitize_{op_name}.py"):
        assert "from harness.row_norm import" in (rendered / entry).read_text(), entry
    assert f"ROW_NORM_CUDA_KERNELS({package}," in (rendered / f"csrc/{op_name}_cuda.cu").read_text()
    header = (rendered / f"csrc/{op_name}.h").read_text()
    layer_norm = answers.get("norm") == "layer_norm"
    assert f"kCentered = {'true' if layer_norm else 'false'};" in header
    assert f"kWeightOffset = {'1' if answers.get('zero_centered_weight') else '0'};" in header
    assert f"kResidual = {'true' if answers.get('residual_add') else 'false'};" in header
    assert f"ROW_NORM_OPERATOR({package}," in (rendered / f"csrc/{op_name}.cpp").read_text()


def test_a_zero_centred_weight_is_refused_for_layer_norm(render_project):
    with pytest.raises(ValueError, match="zero_centered_weight applies to the RMSNorm"):
        render_project(family="row_norm", norm="layer_norm", zero_centered_weight=True)


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        ({"norm": "layer_norm"}, "norm applies to the row_norm family only"),
        ({"family": "row_norm", "activation": "relu"}, "activation applies to the bias_activation family only"),
        ({"residual_add": True}, "residual_add applies to the row_norm family only"),
    ],
    ids=["norm_of_an_activation", "activation_of_a_norm", "residual_add_of_an_activation"],
)
def test_an_answer_of_the_other_family_is_refused(render_project, answers, message):
    with pytest.raises(ValueError, match=message):
        render_project(**answers)


def test_a_project_with_an_operator_of_each_family_builds_passes_and_updates(tmp_path):
    (tmp_path / "template-repo").mkdir()
    template_repo = TemplateRepo(tmp_path / "template-repo")
    generated = template_repo.copy(tmp_path / "project", {"op_name": "my_op"}, vcs_ref="v0.1.0")
    git(generated, "init", "-q")
    commit_all(generated, "generated")
    template_repo.copy(
        generated,
        {"op_name": "my_norm", "family": "row_norm", "norm": "layer_norm"},
        answers_file=".copier-answers.my_norm.yml",
        vcs_ref="v0.1.0",
    )
    answers = yaml.safe_load((generated / ".copier-answers.my_norm.yml").read_text())
    assert answers["family"] == "row_norm" and answers["norm"] == "layer_norm"
    assert "ROW_NORM_OPERATOR(fused_bias_activation, MyNorm)" in (generated / "csrc/my_norm.cpp").read_text()
    commit_all(generated, "add the my_norm operator")
    project.build(generated)
    project.run_tests(generated, ["-k", "cpu and not compile"])

    # A later release changes the row normalization family's CPU loops: the project takes it with
    # copier update, the operator's own files stay as they were.
    grain = "constexpr int64_t kGrainElements = 32768;"
    edit(template_repo.file("csrc/row_norm/cpu.h.jinja"), grain, grain.replace("32768", "16384") + "  // v0.2.0")
    template_repo.release("v0.2.0")
    git(generated, "clean", "-fdqX")  # build outputs are ignored; copier wants a clean tree anyway
    operator_files = {path: (generated / path).read_text() for path in ("csrc/my_norm.h", "csrc/my_norm.cpp")}
    template_repo.update(generated)
    assert sorted(line[3:] for line in git(generated, "status", "--porcelain").splitlines()) == [
        ".copier-answers.yml",
        "csrc/row_norm/cpu.h",
    ]
    commit_all(generated, "update to v0.2.0")
    template_repo.update(generated, answers_file=".copier-answers.my_norm.yml")
    assert "kGrainElements = 16384;  // v0.2.0" in (generated / "csrc/row_norm/cpu.h").read_text()
    assert yaml.safe_load((generated / ".copier-answers.my_norm.yml").read_text())["_commit"] == "v0.2.0"
    # Only the operator's answers file changed (no conflict: no "UU" entry, no markers), and its own
    # files are as they were.
    assert git(generated, "status", "--porcelain").splitlines() == [" M .copier-answers.my_norm.yml"]
    assert {path: (generated / path).read_text() for path in operator_files} == operator_files


def _reference(x):  # a stand-in operator's reference, defined in a file so that its source can be read
    return x


def test_the_row_norm_benchmark_records_the_reference_its_eager_and_compile_columns_time(monkeypatch):
    # bench_<op>.json's meta carries the reference's source: a record then says what its eager and
    # torch.compile columns timed (the README's tables read it: scaffold/results.py's _reference_note).
    import importlib
    import inspect
    import sys
    import types

    from scaffold import render

    monkeypatch.syspath_prepend(str(render.EXAMPLES_ROOT / "generated_rmsnorm"))
    for name in [m for m in sys.modules if m.split(".")[0] == "benchmarks"]:
        monkeypatch.delitem(sys.modules, name)  # (another example's benchmarks package)
    try:
        harness = importlib.import_module("benchmarks.harness.row_norm")
        spec = types.SimpleNamespace(
            norm="rms_norm", zero_centered_weight=True, residual_add=False, default_eps=1e-6, reference=_reference
        )
        assert harness.FAMILY.meta(spec)["reference"] == inspect.getsource(_reference)
    finally:  # this example's benchmarks package leaves with the test
        for name in [m for m in sys.modules if m.split(".")[0] == "benchmarks"]:
            del sys.modules[name]
