"""Build rendered projects on this machine's torch and run their own tests and benchmark.

On a machine without a GPU (CI) this builds and tests the CPU kernels; the CUDA results are
recorded from the GPU machine in examples/generated_gelu/benchmarks/results/. Installs from fresh
virtual environments (editable, regular, from an sdist, the CI workflow's steps) are in
test_installs.py.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from scaffold import cli, project, render


def test_the_readme_demo_command_renders_builds_tests_and_benchmarks(tmp_path, capsys):
    """`scaffold demo DEST`, the README's first command: the example rendered into a new folder, built
    in place, its tests and its quick benchmark run."""
    destination = tmp_path / "demo"
    assert cli.main(["demo", str(destination)]) == 0
    # The example's files (its answers file records the template's path differently).
    assert render.tree_differences(destination, render.EXAMPLE_DIR) == ["differs: .copier-answers.yml"]
    assert "is built and its tests pass" in capsys.readouterr().out
    assert (destination / "benchmarks" / "results" / "quick" / "bench_fused_bias_gelu.json").stat().st_size > 0


def test_a_failing_step_is_reported(render_project):
    broken = render_project(activation="relu")
    (broken / "csrc" / "fused_bias_relu.cpp").write_text("this is not C++\n")
    with pytest.raises(project.StepFailed, match="build failed"):
        project.build(broken, env={"MAX_JOBS": "1"})  # the broken file compiles first: fails at once


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


def test_a_debug_build_of_the_portable_cpu_loops_has_assertions_and_passes_the_tests(render_project):
    """DEBUG=1 (no optimization, assertions on) with PORTABLE_CPU=1 (the CPU loops for any x86-64
    CPU, the module _C): the build flags say so, and the kernels pass the forward and backward tests."""
    project_dir = render_project(activation="sigmoid")
    result = _setup_py(project_dir, {"DEBUG": "1", "USE_CUDA": "0", "PORTABLE_CPU": "1"})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    compile_lines = [line for line in result.stdout.splitlines() if " -c " in line and "csrc/" in line]
    assert compile_lines and all(" -O0 -g" in line for line in compile_lines)
    for line in compile_lines:  # Python's flags bring -DNDEBUG; the last word on NDEBUG must undo it
        assert [flag for flag in line.split() if flag.endswith("NDEBUG")][-1] == "-UNDEBUG", line
        assert "-mavx2" not in line.split() and "-DCPU_CAPABILITY_AVX2" not in line.split(), line
    assert "building the CPU kernels only" in result.stdout
    package = project_dir / "src" / "fused_bias_activation"
    assert [path.name.split(".")[0] for path in package.glob("_C*.so")] == ["_C"]
    project.run_tests(project_dir, ["-k", "cpu and (forward or backward) and not compile"])


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
