"""The generated project's own tooling: clang-format, pre-commit and the CI workflow.

Rendered projects must already pass what their pre-commit hooks and CI check: clang-format on csrc/
(with the project's .clang-format), no trailing whitespace and one final newline in every file, YAML
that parses. ruff is checked in test_renderings.py. Nothing here builds anything.
"""

import re
import shutil
import subprocess

import pytest
import yaml

from scaffold import render

ACTIVATIONS = list(yaml.safe_load((render.TEMPLATE_ROOT / "copier.yml").read_text())["activation"]["choices"].values())
LONG_NAMES = {  # the longest names copier.yml accepts: 32 characters
    "package_name": "a_rather_long_package_name_of_32",
    "namespace": "a_rather_long_namespace_name_32c",
    "op_name": "a_really_long_fused_operator_32c",
}
SHORT_NAMES = {"package_name": "pk", "namespace": "ns", "op_name": "op"}
# Every activation (the header differs for each), and names long and short: where a line breaks
# must not depend on the length of the names.
NORMS = [
    {"family": "row_norm"},
    {"family": "row_norm", "zero_centered_weight": True},
    {"family": "row_norm", "norm": "layer_norm", **LONG_NAMES},
]
RENDERINGS = [{"activation": activation} for activation in ACTIVATIONS] + [LONG_NAMES, SHORT_NAMES] + NORMS
RENDERING_IDS = ACTIVATIONS + ["long", "short", "rms_norm", "gemma_rms_norm", "layer_norm_long"]
CSRC_SUFFIXES = {".h", ".cpp", ".cu", ".cuh"}


def pinned_rev(config, repo_suffix):
    """The rev of the hook repository whose URL ends with repo_suffix, without its leading v."""
    (rev,) = [repo["rev"] for repo in config["repos"] if repo["repo"].endswith(repo_suffix)]
    return rev.removeprefix("v")


def template_pre_commit_config():
    return yaml.safe_load((render.TEMPLATE_ROOT / "template" / ".pre-commit-config.yaml").read_text())


def installed_clang_format():
    """The version of clang-format on PATH, or None if there is none."""
    if shutil.which("clang-format") is None:
        return None
    output = subprocess.run(["clang-format", "--version"], capture_output=True, text=True).stdout
    match = re.search(r"clang-format version (\S+)", output)
    return match.group(1) if match else output.strip()


@pytest.mark.parametrize("answers", RENDERINGS, ids=RENDERING_IDS)
def test_rendered_sources_pass_clang_format(render_project, answers):
    version = installed_clang_format()
    if version is None:
        pytest.skip("clang-format is not installed (pip install clang-format)")
    pinned = pinned_rev(template_pre_commit_config(), "/mirrors-clang-format")
    if version != pinned:
        pytest.skip(f"clang-format {version} is installed, but the template pins {pinned}")
    project = render_project(**answers)
    csrc = project / "csrc"
    sources = sorted(path.relative_to(csrc).as_posix() for path in csrc.rglob("*") if path.suffix in CSRC_SUFFIXES)
    # The operator's three files, module.cpp, and the core's and the family's headers.
    assert {"module.cpp", "core/common.h", "bias_activation/cuda.cuh"} <= set(sources) and len(sources) >= 14
    command = ["clang-format", "--dry-run", "--Werror", *sources]
    result = subprocess.run(command, cwd=project / "csrc", capture_output=True, text=True)
    assert result.returncode == 0, f"{' '.join(command)}:\n{result.stdout}{result.stderr}"


@pytest.mark.parametrize("answers", RENDERINGS, ids=RENDERING_IDS)
def test_rendered_files_pass_the_whitespace_hooks(render_project, answers):
    """What pre-commit's trailing-whitespace, end-of-file-fixer and check-yaml hooks check."""
    project = render_project(**answers)
    files = sorted(path for path in project.rglob("*") if path.is_file())
    assert files
    problems = []
    for path in files:
        relative = path.relative_to(project).as_posix()
        text = path.read_text()
        if not text.endswith("\n") or text.endswith("\n\n"):
            problems.append(f"{relative}: does not end with exactly one newline")
        if "\r" in text:
            problems.append(f"{relative}: has carriage returns")
        problems += [
            f"{relative}:{number}: trailing whitespace"
            for number, line in enumerate(text.split("\n"), start=1)
            if line != line.rstrip()
        ]
        if path.suffix in (".yml", ".yaml"):
            yaml.safe_load(text)  # check-yaml
    assert problems == []


def test_pre_commit_config_runs_ruff_and_clang_format(render_project):
    project = render_project()
    assert (project / ".clang-format").is_file()
    config = yaml.safe_load((project / ".pre-commit-config.yaml").read_text())
    hooks = {repo["repo"].rsplit("/", 1)[-1]: repo for repo in config["repos"]}
    assert set(hooks) == {"pre-commit-hooks", "ruff-pre-commit", "mirrors-clang-format"}
    for repo in hooks.values():
        assert re.fullmatch(r"v\d+\.\d+\.\d+", repo["rev"]), f"{repo['repo']} is not pinned to a release"
    ids = {repo_name: [hook["id"] for hook in repo["hooks"]] for repo_name, repo in hooks.items()}
    assert ids == {
        "pre-commit-hooks": ["trailing-whitespace", "end-of-file-fixer", "check-yaml"],
        "ruff-pre-commit": ["ruff-check", "ruff-format"],
        "mirrors-clang-format": ["clang-format"],
    }
    (clang_format,) = hooks["mirrors-clang-format"]["hooks"]
    assert set(clang_format["types_or"]) == {"c++", "c", "cuda"}


def test_ci_workflow(render_project):
    project = render_project()
    text = (project / ".github" / "workflows" / "ci.yml").read_text()
    workflow = yaml.safe_load(text)
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as True
    assert {"push", "pull_request"} <= set(triggers)
    cpu, gpu = workflow["jobs"]["cpu"], workflow["jobs"]["gpu"]

    assert cpu["runs-on"] == "ubuntu-latest" and "if" not in cpu
    (python,) = [step for step in cpu["steps"] if step.get("uses", "").startswith("actions/setup-python@")]
    assert python["with"]["python-version"] == "3.11"
    cpu_script = "\n".join(step.get("run", "") for step in cpu["steps"])
    for command in (
        "pip install torch --index-url https://download.pytorch.org/whl/cpu",
        'pip install "setuptools>=77" ninja',
        'pip install --no-build-isolation -e ".[test]"',
        "ruff check .",
        "ruff format --check .",
        "-exec clang-format --dry-run --Werror {} +",
        "python -m pytest tests",
        "benchmarks/bench_*.py",
        "--quick",
    ):
        assert command in cpu_script, f"the cpu job does not run {command!r}"
    # CI lints with the versions that pre-commit pins.
    config = template_pre_commit_config()
    assert f"ruff=={pinned_rev(config, '/ruff-pre-commit')}" in cpu_script
    assert f"clang-format=={pinned_rev(config, '/mirrors-clang-format')}" in cpu_script

    # The GPU job is opt-in: gated on a repository variable, on a self-hosted runner.
    assert "vars.GPU_CI == 'true'" in gpu["if"] and "self-hosted" in gpu["runs-on"]
    gpu_script = "\n".join(step.get("run", "") for step in gpu["steps"])
    assert "python benchmarks/gpu_suite.py" in gpu_script
    (upload,) = [step for step in gpu["steps"] if step.get("uses", "").startswith("actions/upload-artifact@")]
    assert upload["with"]["path"] == "benchmarks/results" and upload["if"] == "always()"
    assert "GPU_CI" in text.split("name: CI")[0], "the comment at the top explains how to enable the GPU job"
