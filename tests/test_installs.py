"""Every documented way of installing a generated project, each from a fresh virtual environment.

Each environment is made with `python -m venv` and holds nothing but what the README (or the
generated CI workflow) says to install. torch 2.13.0 comes from the local CPU wheel, installed once
per session into a folder of its own (without the setuptools it pulls in) that each environment sees
through a .pth file: installing it into every environment would cost half a minute each.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
import yaml

from scaffold import render

TORCH = "torch==2.13.0"
OTHER_NAMES = {
    "project_name": "Acme Kernels",
    "package_name": "acme_kernels",
    "namespace": "acme",
    "op_name": "bias_silu",
    "activation": "silu",
}


def run(command: str | list[str], cwd: Path, env: dict[str, str], timeout: int = 900) -> str:
    """Run a command (a string runs in bash, -e -o pipefail); fail the test with its output."""
    argv = ["bash", "-e", "-o", "pipefail", "-c", command] if isinstance(command, str) else command
    result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, (
        f"{command}\n--- stdout\n{result.stdout[-4000:]}\n--- stderr\n{result.stderr[-4000:]}"
    )
    return result.stdout


@pytest.fixture(scope="session")
def torch_only(tmp_path_factory) -> Path:
    """torch 2.13.0 and what it needs, but not setuptools, in a folder of their own."""
    target = tmp_path_factory.mktemp("torch-only")
    run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-compile", "--target", str(target), TORCH],
        cwd=target,
        env=dict(os.environ),
    )
    for name in os.listdir(target):  # torch 2.13 pulls in setuptools; older releases do not
        if name.startswith(("setuptools", "pkg_resources", "_distutils_hack", "distutils-precedence")):
            path = target / name
            shutil.rmtree(path) if path.is_dir() else path.unlink()
    return target


class Venv:
    """A fresh virtual environment, activated for the commands run in it."""

    def __init__(self, path: Path, torch_only: Path, setuptools: bool):
        subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
        self.path = path
        self.python = path / "bin" / "python"
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")},
            "VIRTUAL_ENV": str(path),
            "PATH": f"{path / 'bin'}{os.pathsep}{os.environ['PATH']}",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        }
        if not setuptools:  # as a Python 3.12 venv comes
            run([str(self.python), "-m", "pip", "uninstall", "--quiet", "-y", "setuptools"], path, self.env)
        site = run([str(self.python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], path, self.env)
        (Path(site.strip()) / "torch_only.pth").write_text(f"{torch_only}\n")

    def packages(self) -> dict[str, str]:
        listed = run([str(self.python), "-m", "pip", "list", "--format=freeze"], self.path, self.env)
        return dict(line.split("==", 1) for line in listed.splitlines() if "==" in line)


@pytest.fixture
def venv(tmp_path, torch_only):
    def make(name: str, setuptools: bool) -> Venv:
        return Venv(tmp_path / name, torch_only, setuptools)

    return make


def bash_block(markdown: str, heading: str) -> str:
    """The first ```bash block under a heading of a README."""
    section = markdown[markdown.index(heading) :]
    return re.search(r"```bash\n(.*?)```", section, re.S).group(1)


def build_block(project: Path) -> list[str]:
    lines = [line for line in bash_block((project / "README.md").read_text(), "## Build").splitlines() if line]
    assert lines == ['pip install "setuptools>=77" ninja', 'pip install --no-build-isolation -e ".[test]"']
    return lines


def test_the_readme_build_block_sets_up_a_venv_with_the_setuptools_python_3_11_ships(render_project, venv):
    """From the setuptools 65.5 of a Python 3.11 venv, the block's set-up line gives what the build
    needs; from there the build is the one the next test runs from a venv without setuptools."""
    environment = venv("shipped", setuptools=True)
    assert int(environment.packages()["setuptools"].split(".")[0]) < 77  # else this tests nothing
    project = render_project()
    run(build_block(project)[0], project, environment.env)
    installed = environment.packages()
    assert int(installed["setuptools"].split(".")[0]) >= 77 and "ninja" in installed


def test_the_readme_build_block_in_a_fresh_venv_without_setuptools(render_project, venv):
    """The README's Build block as written (an editable install), in a venv without setuptools, as a
    Python 3.12 venv comes; then the project's tests from its folder."""
    project = render_project(**OTHER_NAMES)
    environment = venv("readme", setuptools=False)
    assert "setuptools" not in environment.packages()
    run("\n".join(build_block(project)), project, environment.env)
    installed = environment.packages()
    assert int(installed["setuptools"].split(".")[0]) >= 77
    version = installed[OTHER_NAMES["package_name"].replace("_", "-")]
    assert re.search(r"\+torch2\.13\.cpu(\.avx512|\.avx2)?$", version), version  # (the CPU loops' set)
    output = run([str(environment.python), "-m", "pytest", "-q", "-p", "no:cacheprovider"], project, environment.env)
    assert " passed" in output and " failed" not in output


def test_the_generated_ci_workflow_steps_in_a_fresh_venv(venv, tmp_path):
    """The cpu job's run: steps in order (lint, editable install, tests, quick benchmarks), torch from
    the local wheel in place of its torch step, on a copy of the committed example."""
    project = tmp_path / "example"
    shutil.copytree(render.EXAMPLE_DIR, project, ignore=shutil.ignore_patterns("build", "*.so", "results"))
    environment = venv("workflow", setuptools=True)
    workflow = yaml.safe_load((project / ".github" / "workflows" / "ci.yml").read_text())
    steps = [step for step in workflow["jobs"]["cpu"]["steps"] if "run" in step]
    assert steps[0]["name"] == "Install PyTorch (CPU wheel)" and "pip install torch" in steps[0]["run"]
    for step in steps[1:]:
        run(step["run"], project, environment.env)


def test_an_sdist_builds_a_wheel_that_says_what_it_needs_and_a_plain_install_passes_the_tests(
    render_project, venv, tmp_path
):
    """From a source distribution, as from a package index: build a wheel from the unpacked sdist in
    a fresh venv, check the wheel, install it (not editable) and run the project's tests from the
    unpacked folder, whose src/ holds no compiled library and must not shadow the installed package."""
    project = render_project()
    dist = tmp_path / "dist"
    run(
        [sys.executable, "-m", "build", "--sdist", "--no-isolation", "--outdir", str(dist), "."],
        project,
        dict(os.environ),
    )
    (sdist,) = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
        archive.extractall(tmp_path / "unpacked", filter="data")
    root = names[0].split("/")[0]
    for needed in ("build_config.py", "doctor.py", "setup.py", "MANIFEST.in", "csrc/module.cpp", "tests/conftest.py"):
        assert f"{root}/{needed}" in names, needed
    assert any(name.endswith("_cuda.cu") for name in names) and any(name.endswith(".h") for name in names)
    unpacked = tmp_path / "unpacked" / root

    environment = venv("sdist", setuptools=True)
    readme_setup = bash_block((project / "README.md").read_text(), "## Build").splitlines()[0]
    run(readme_setup, unpacked, environment.env)  # pip install "setuptools>=77" ninja
    wheels = tmp_path / "wheels"
    run(f"pip wheel --no-build-isolation --no-deps -w {wheels} .", unpacked, environment.env)
    (wheel,) = wheels.glob("*.whl")
    # The label names the CPU loops' instruction set: this machine's widest (build_config.py), none for _C.
    label = re.fullmatch(
        r"fused_bias_activation-0\.1\.0\+torch2\.13\.cpu(\.avx512|\.avx2|)-cp310-abi3-linux_\w+\.whl", wheel.name
    )
    assert label, wheel.name
    isa = label.group(1).lstrip(".")
    with zipfile.ZipFile(wheel) as archive:
        contents = archive.namelist()
        metadata = archive.read(next(n for n in contents if n.endswith(".dist-info/METADATA"))).decode()
    # One library, of the label's instruction set.
    libraries = [name for name in contents if re.fullmatch(r"fused_bias_activation/_C(_avx512|_avx2)?\.abi3\.so", name)]
    assert libraries == [f"fused_bias_activation/_C{'_' + isa if isa else ''}.abi3.so"], contents
    assert any(name.endswith("licenses/LICENSE") for name in contents)
    assert not any(name.startswith(("csrc/", "tests/", "build_config", "doctor", "src/")) for name in contents)
    assert "Requires-Dist: torch==2.13.*" in metadata.splitlines(), metadata
    assert f"Version: 0.1.0+torch2.13.cpu{'.' + isa if isa else ''}" in metadata.splitlines()

    run(f"pip install '{wheel}[test]'", unpacked, environment.env)
    assert not any((unpacked / "src" / "fused_bias_activation").glob("_C*"))
    check = (
        "import torch, fused_bias_activation as p; x = torch.randn(5, 16); b = torch.randn(16); "
        "assert torch.allclose(p.fused_bias_gelu_tanh(x, b), p.reference_fused_bias_gelu_tanh(x, b), atol=1e-6); "
        "print(p.__file__)"
    )
    where = run([str(environment.python), "-c", check], tmp_path, environment.env)
    assert where.startswith(str(environment.path))  # the installed copy
    output = run([str(environment.python), "-m", "pytest", "-q", "-p", "no:cacheprovider"], unpacked, environment.env)
    assert " passed" in output and " failed" not in output

    # The tests of an operator the installed copy lacks (added to the project after it was installed):
    # they fail saying so and how to install again, not with the suite's KeyError.
    added = unpacked / "tests" / "test_added_later.py"
    added.write_text('from suites.bias_activation import *  # noqa: F403\n\nOPERATOR = "added_later"\n')
    later = subprocess.run(
        [str(environment.python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", str(added)],
        cwd=unpacked,
        env=environment.env,
        capture_output=True,
        text=True,
    )
    assert later.returncode != 0 and "KeyError" not in later.stdout, later.stdout[-2000:]
    assert "has no operator 'added_later' (no ops/added_later.py there)" in later.stdout, later.stdout[-2000:]
    assert 'pip install --no-build-isolation ".[test]"' in later.stdout


def test_without_a_built_library_the_import_error_says_what_to_run(render_project, tmp_path):
    project = render_project()
    result = subprocess.run(
        [sys.executable, "-c", "import fused_bias_activation"],
        cwd=project / "src",
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "the compiled library, is missing" in result.stderr
    assert "pip install --no-build-isolation -e ." in result.stderr and "FUSED_BIAS_ACTIVATION_JIT=1" in result.stderr
