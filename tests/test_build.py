"""Build rendered projects on this machine's torch and run their own tests and benchmark.

On a machine without a GPU (CI) this builds and tests the CPU kernels; the CUDA results are
recorded from the GPU machine in examples/generated_gelu/benchmarks/results/.
"""

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import torch

from scaffold import project, render


@pytest.fixture(scope="module")
def built_example(tmp_path_factory):
    """A copy of the committed example, built in place."""
    example = tmp_path_factory.mktemp("built") / "generated_gelu"
    shutil.copytree(render.EXAMPLE_DIR, example)
    project.build(example)
    return example


def test_example_passes_its_tests(built_example):
    project.run_tests(built_example)


def test_example_benchmark_runs_in_quick_mode(built_example):
    project.run_benchmark(built_example, ["--quick", "--json", str(built_example / "quick.json")])
    assert (built_example / "quick.json").stat().st_size > 0


def test_another_rendering_builds_and_passes_its_tests(render_project):
    other = render_project(
        project_name="My Kernels",
        package_name="my_kernels",
        namespace="mykern",
        op_name="bias_silu",
        activation="silu",
    )
    project.build(other)
    project.run_tests(other)


def test_a_failing_step_is_reported(render_project):
    broken = render_project(activation="relu")
    (broken / "csrc" / "fused_bias_relu.cpp").write_text("this is not C++\n")
    with pytest.raises(project.StepFailed, match="build failed"):
        project.build(broken)


def _setup_py(project_dir, env, *args):
    return subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace", *args],
        cwd=project_dir,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )


@pytest.mark.skipif(torch.version.cuda is not None, reason="checks the refusal on a CPU-only torch")
def test_force_cuda_on_a_cpu_torch_fails_with_the_reason(render_project):
    result = _setup_py(render_project(), {"FORCE_CUDA": "1"})
    assert result.returncode != 0
    assert "CUDA was requested, but torch" in result.stderr + result.stdout
    assert "is a CPU-only build" in result.stderr + result.stdout


def test_contradicting_cuda_switches_are_refused(render_project):
    result = _setup_py(render_project(), {"FORCE_CUDA": "1", "USE_CUDA": "0"})
    assert result.returncode != 0 and "contradict each other" in result.stderr + result.stdout


def test_debug_build_compiles_without_optimization(render_project):
    project_dir = render_project(activation="sigmoid")
    result = _setup_py(project_dir, {"DEBUG": "1", "USE_CUDA": "0"})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    compile_lines = [line for line in result.stdout.splitlines() if " -c " in line and "csrc/" in line]
    assert compile_lines and all(" -O0 -g" in line for line in compile_lines)
    assert "building the CPU kernels only" in result.stdout


def test_the_wheel_is_one_abi3_wheel_that_works_installed(built_example, tmp_path):
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-build-isolation", "--no-deps", "-w", str(dist), "."],
        cwd=built_example,
        check=True,
    )
    (wheel,) = dist.glob("*.whl")
    assert wheel.name.startswith("generated_gelu-0.1.0-cp310-abi3-"), wheel.name
    contents = zipfile.ZipFile(wheel).namelist()
    print("\n".join(contents))
    for expected in (
        "generated_gelu/_C.abi3.so",
        "generated_gelu/ops/fused_bias_gelu.py",
        "generated_gelu/__init__.py",
    ):
        assert expected in contents
    assert any(name.endswith("licenses/LICENSE") for name in contents)
    assert not any(name.startswith(("csrc/", "tests/", "build_config", "doctor")) for name in contents)

    # A fresh virtual environment: it sees torch where it is installed (too large to install again
    # here) through a .pth file, nothing of the checkout, and the package only from the wheel.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    venv_site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True
    ).stdout.strip()
    (Path(venv_site) / "torch_location.pth").write_text(str(Path(torch.__file__).parent.parent) + "\n")
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    check = (
        "import torch, generated_gelu as g; x = torch.randn(5, 16); b = torch.randn(16); "
        "assert torch.allclose(g.fused_bias_gelu(x, b), g.reference_fused_bias_gelu(x, b), atol=1e-6); "
        "print(g.__file__)"
    )
    result = subprocess.run([python, "-c", check], cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.startswith(str(venv))  # the installed copy, not the checkout


def test_the_jit_build_compiles_the_same_sources_and_rebuilds_only_what_changed(tmp_path):
    example = tmp_path / "generated_gelu"
    shutil.copytree(render.EXAMPLE_DIR, example, ignore=shutil.ignore_patterns("build", "*.so"))
    result = subprocess.run(
        [sys.executable, "benchmarks/jit_rebuild.py", "--json", str(tmp_path / "jit.json")],
        cwd=example,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    record = json.loads((tmp_path / "jit.json").read_text())
    print(record)  # the times are measured, not asserted: timings belong to benchmarks
    built = record["built"]
    sources = sorted(path.stem for path in (example / "csrc").glob("*.cpp"))
    # From scratch every translation unit and the link; after an edit of one kernel file, that
    # file's object and the link, nothing else; unchanged, nothing (ninja's own log says so).
    assert sorted(name.removesuffix(".o") for name in built["from_scratch"] if name.endswith(".o")) == sources
    assert built["after_editing_the_kernel"] == sorted([Path(record["edited"]).stem + ".o", "generated_gelu_jit.so"])
    assert built["unchanged"] == []
    project.run_tests(example, ["-k", "cpu and (forward or backward or opcheck)"], env={"GENERATED_GELU_JIT": "1"})
