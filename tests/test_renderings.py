"""Renderings other than the example: every activation, other names, every license."""

import py_compile
import re
import shutil
import subprocess
import sys

import pytest
import yaml

from scaffold import render

ACTIVATIONS = [
    choice
    for choice in yaml.safe_load((render.TEMPLATE_ROOT / "copier.yml").read_text())["activation"]["choices"].values()
]
LEFTOVER_JINJA = re.compile(r"\{\{|\{%|\{#")  # opening delimiters: "}}" is also Python
OTHER_NAMES = {
    "project_name": "My Kernels",
    "package_name": "my_kernels",
    "namespace": "mykern",
    "op_name": "bias_act",
    "author_name": "Ada Lovelace",
    "author_email": "ada@example.org",
    "license": "Apache-2.0",
    "version": "2.3.0",
}


def check_rendering(project, package_name, op_name):
    files = [path for path in project.rglob("*") if path.is_file()]
    for path in files:
        relative = path.relative_to(project).as_posix()
        assert not LEFTOVER_JINJA.search(relative), f"template syntax left in the file name {relative}"
        assert not LEFTOVER_JINJA.search(path.read_text()), f"template syntax left in {relative}"
        if path.suffix == ".py":
            py_compile.compile(str(path), doraise=True, cfile=str(path) + ".check")
            path.with_name(path.name + ".check").unlink()
    for expected in (
        f"csrc/{op_name}.h",
        f"csrc/{op_name}.cpp",
        f"csrc/{op_name}_cuda.cu",
        f"src/{package_name}/ops/{op_name}.py",
        f"tests/test_{op_name}.py",
        f"benchmarks/bench_{op_name}.py",
        f"benchmarks/sanitize_{op_name}.py",
    ):
        assert (project / expected).is_file(), f"{expected} was not rendered"


@pytest.mark.parametrize("activation", ACTIVATIONS)
def test_each_activation_renders(render_project, activation):
    project = render_project(activation=activation)
    check_rendering(project, "fused_bias_activation", f"fused_bias_{activation}")
    header = (project / f"csrc/fused_bias_{activation}.h").read_text()
    # The operator's math: one forward and one backward, in one struct.
    assert header.count("static OP_INLINE T forward(const T& h)") == 1
    assert header.count("static OP_INLINE T backward(const T& h)") == 1
    assert header.count("struct FusedBias") == 1


def test_other_names_render(render_project):
    project = render_project(activation="silu", **OTHER_NAMES)
    check_rendering(project, "my_kernels", "bias_act")
    assert "TORCH_LIBRARY(mykern, m)" in (project / "csrc/module.cpp").read_text()
    assert "BIAS_ACTIVATION_OPERATOR(mykern, BiasAct)" in (project / "csrc/bias_act.cpp").read_text()
    assert 'kName = "mykern::bias_act"' in (project / "csrc/bias_act.h").read_text()
    python_api = (project / "src/my_kernels/ops/bias_act.py").read_text()
    assert 'bias_act, BiasAct = bias_activation.operator("mykern::bias_act", "silu", reference_bias_act)' in python_api
    assert "Apache License" in (project / "LICENSE").read_text()
    assert 'VERSION = "2.3.0"' in (project / "build_config.py").read_text()


def test_schema_is_written_once(render_project):
    """The family's signatures appear in one file; operators and Python reach them through it."""
    project = render_project()
    hits = [
        path.relative_to(project).as_posix()
        for path in project.rglob("*")
        if path.is_file() and "(Tensor x, Tensor bias) -> Tensor" in path.read_text()
    ]
    assert hits == ["csrc/bias_activation/operator.h"]


@pytest.mark.parametrize("license_name", ["MIT", "BSD-3-Clause", "Apache-2.0", "Proprietary"])
def test_licenses(render_project, license_name):
    project = render_project(license=license_name, author_name="Grace Hopper", copyright_year=2031)
    pyproject = (project / "pyproject.toml").read_text()
    if license_name == "Proprietary":
        assert not (project / "LICENSE").exists() and "license =" not in pyproject
        return
    text = (project / "LICENSE").read_text()
    assert "Grace Hopper" in text and "2031" in text and not text.startswith("\n") and text.endswith("\n")
    assert f'license = "{license_name}"' in pyproject


LONG_NAMES = {  # the longest names copier.yml accepts: 32 characters
    "package_name": "a_rather_long_package_name_of_32",
    "namespace": "a_rather_long_namespace_name_32c",
    "op_name": "a_really_long_fused_operator_32c",
}


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed")
@pytest.mark.parametrize(
    "answers",
    [
        {},
        {"activation": "sigmoid"},
        {"activation": "relu", **LONG_NAMES},
        {"family": "row_norm", "zero_centered_weight": True},
        {"family": "row_norm", "norm": "layer_norm", **LONG_NAMES},
    ],
    ids=["defaults", "sigmoid", "long", "gemma_rms_norm", "layer_norm_long"],
)
def test_rendered_python_passes_ruff(render_project, answers):
    project = render_project(**answers)
    for command in (["ruff", "check", "."], ["ruff", "format", "--check", "--diff", "."]):
        result = subprocess.run(command, cwd=project, capture_output=True, text=True)
        assert result.returncode == 0, f"{' '.join(command)}:\n{result.stdout}{result.stderr}"


def test_rendered_project_parses_its_own_answers(render_project):
    project = render_project(**OTHER_NAMES)
    answers = yaml.safe_load((project / ".copier-answers.yml").read_text())
    assert {key: answers[key] for key in OTHER_NAMES} == OTHER_NAMES
    assert sys.version_info >= (3, 10)
