"""Build rendered projects on this machine's torch and run their own tests and benchmark.

On a machine without a GPU (CI) this builds and tests the CPU kernels; the CUDA results are
recorded from the GPU machine in examples/generated_gelu/benchmarks/results/. Installs from fresh
virtual environments (editable, regular, from an sdist, the CI workflow's steps) are in
test_installs.py.
"""

import importlib.util
import json
import os
import platform
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
        assert not [flag for flag in line.split() if flag.startswith(("-mavx", "-DCPU_CAPABILITY"))], line
    assert "building the CPU kernels only" in result.stdout
    package = project_dir / "src" / "fused_bias_activation"
    assert [path.name.split(".")[0] for path in package.glob("_C*.so")] == ["_C"]
    project.run_tests(project_dir, ["-k", "cpu and (forward or backward) and not compile"])


def _build_config_of(project_dir):
    spec = importlib.util.spec_from_file_location("build_config", project_dir / "build_config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


AVX512_MACHINE = {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx2", "fma", "f16c", "sse4_2"}


@pytest.mark.parametrize(
    ("env", "machine", "module", "present", "absent"),
    [
        (
            {},
            AVX512_MACHINE,
            "_C_avx512",
            ["-mavx512f", "-mavx512bw", "-DCPU_CAPABILITY=AVX512"],
            ["-DCPU_CAPABILITY_AVX2"],
        ),
        ({}, AVX512_MACHINE - {"avx512dq"}, "_C_avx2", ["-mavx2", "-mfma", "-DCPU_CAPABILITY_AVX2"], ["-mavx512f"]),
        ({}, {"avx2", "fma", "f16c"}, "_C_avx2", ["-mavx2", "-mf16c", "-DCPU_CAPABILITY=AVX2"], ["-mavx512f"]),
        ({}, {"avx2", "f16c"}, "_C", [], ["-mavx2"]),  # no FMA: ATen's AVX2 vectors need it
        ({}, set(), "_C", [], ["-mavx2"]),  # not x86-64, or /proc/cpuinfo unreadable
        ({"CPU_ISA": "avx2"}, AVX512_MACHINE, "_C_avx2", ["-mavx2", "-DCPU_CAPABILITY_AVX2"], ["-mavx512f"]),
        ({"CPU_ISA": "AVX512"}, {"avx2", "fma", "f16c"}, "_C_avx512", ["-mavx512vl", "-DCPU_CAPABILITY_AVX512"], []),
        ({"CPU_ISA": "portable"}, AVX512_MACHINE, "_C", [], ["-mavx2", "-mavx512f"]),
        ({"PORTABLE_CPU": "1"}, AVX512_MACHINE, "_C", [], ["-mavx2", "-mavx512f"]),
    ],
)
def test_cpu_isa_picks_the_cpu_loops_flags_and_module_name(
    render_project, monkeypatch, env, machine, module, present, absent
):
    """The CPU loops' instruction set: CPU_ISA, PORTABLE_CPU, else the widest the machine runs (flags
    read from /proc/cpuinfo, here made up); the module's name says which, and the flags follow it."""
    config = _build_config_of(render_project(activation="relu"))
    for name in ("CPU_ISA", "PORTABLE_CPU"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(config, "cpu_flags_of_this_machine", lambda: set(machine))
    flags = config.cxx_flags(debug=False)
    assert config.module_name() == module
    assert all(flag in flags for flag in present), flags
    assert not any(flag in flags for flag in absent), flags
    if module == "_C":
        assert not [flag for flag in flags if flag.startswith(("-mavx", "-mfma", "-DCPU_CAPABILITY"))], flags


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"CPU_ISA": "sse4"}, "CPU_ISA='sse4': expected one of avx512, avx2, portable"),
        ({"CPU_ISA": "avx2", "PORTABLE_CPU": "1"}, "PORTABLE_CPU=1 and CPU_ISA=avx2 contradict each other"),
    ],
)
def test_an_unknown_or_contradicting_cpu_isa_is_refused(render_project, env, message):
    result = _setup_py(render_project(activation="relu"), {"USE_CUDA": "0", **env})
    assert result.returncode != 0 and message in result.stderr + result.stdout, result.stderr[-2000:]


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"), reason="x86-64 instruction sets")
def test_by_default_the_cpu_loops_are_as_wide_as_eager_pytorchs(render_project, monkeypatch):
    """Unset, CPU_ISA is the set that ATen's own CPU kernels use on this machine (AVX512 or AVX2)."""
    for name in ("CPU_ISA", "PORTABLE_CPU", "ATEN_CPU_CAPABILITY"):
        monkeypatch.delenv(name, raising=False)
    aten = torch.backends.cpu.get_cpu_capability().lower()
    if aten not in ("avx512", "avx2"):
        pytest.skip(f"ATen runs {aten} vectors here (ATEN_CPU_CAPABILITY set, or an old CPU)")
    assert _build_config_of(render_project(activation="relu")).cpu_isa() == aten


@pytest.mark.parametrize("isa", ["avx512", "avx2"])
def test_a_library_for_an_instruction_set_the_cpu_lacks_is_refused_on_import(render_project, isa):
    """The package imports _C_<isa> only where torch says the CPU runs it; else an ImportError that says
    how to rebuild. (A stand-in file: the check comes before the library is loaded.)"""
    project_dir = render_project(activation="relu")
    (project_dir / "src" / "fused_bias_activation" / f"_C_{isa}.abi3.so").write_bytes(b"")
    script = (
        "import sys, torch\n"
        f"torch.cpu._is_{isa}_supported = lambda: sys.argv[1] == 'yes'\n"
        "sys.path.insert(0, 'src')\n"
        "import fused_bias_activation\n"
    )
    lacking = subprocess.run([sys.executable, "-c", script, "no"], cwd=project_dir, capture_output=True, text=True)
    assert lacking.returncode != 0
    assert f"CPU loops are built for {isa.upper()}, which this CPU lacks" in lacking.stderr
    assert "CPU_ISA=avx2" in lacking.stderr and "CPU_ISA=portable" in lacking.stderr
    having = subprocess.run([sys.executable, "-c", script, "yes"], cwd=project_dir, capture_output=True, text=True)
    # Past the check, the stand-in itself is loaded (and is no library).
    assert (
        having.returncode != 0 and f"_C_{isa}.abi3.so" in having.stderr and "which this CPU lacks" not in having.stderr
    )


def test_a_jit_build_for_an_instruction_set_the_cpu_lacks_is_refused_before_it_compiles(render_project):
    """With <PACKAGE>_JIT=1 the package compiles csrc/ for CPU_ISA (or this machine's set): where torch
    says the CPU lacks it, the import stops with the message before compiling anything."""
    project_dir = render_project(activation="relu")
    script = (
        "import sys, torch\n"
        "torch.cpu._is_avx512_supported = lambda: False\n"
        "sys.path.insert(0, 'src')\n"
        "import fused_bias_activation\n"
    )
    env = {**os.environ, "FUSED_BIAS_ACTIVATION_JIT": "1", "CPU_ISA": "avx512", "USE_CUDA": "0"}
    result = subprocess.run([sys.executable, "-c", script], cwd=project_dir, env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "CPU loops are built for AVX512, which this CPU lacks" in result.stderr, result.stderr[-2000:]
    assert not (project_dir / "build").exists()  # nothing compiled


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
