"""Build rendered projects on this machine's torch and run their own tests and benchmark.

On a machine without a GPU (CI) this builds and tests the CPU kernels; the CUDA results are
recorded from the GPU machine in examples/generated_gelu/benchmarks/results/. Installs from fresh
virtual environments (editable, regular, from an sdist, the CI workflow's steps) are in
test_installs.py.
"""

import ast
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
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
    # Libraries of other instruction sets that earlier builds left (stand-ins): an in-place build removes
    # them from src/ and from the build folder, whose whole package a wheel takes.
    package = project_dir / "src" / "fused_bias_activation"
    built = (
        project_dir
        / "build"
        / f"lib.{sysconfig.get_platform()}-cpython-{sys.version_info.major}{sys.version_info.minor}"
    )
    stale = [package / "_C_avx512.abi3.so", built / "fused_bias_activation" / "_C_avx2.abi3.so"]
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    result = _setup_py(project_dir, {"DEBUG": "1", "USE_CUDA": "0", "PORTABLE_CPU": "1"})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    compile_lines = [line for line in result.stdout.splitlines() if " -c " in line and "csrc/" in line]
    assert compile_lines and all(" -O0 -g" in line for line in compile_lines)
    for line in compile_lines:  # Python's flags bring -DNDEBUG; the last word on NDEBUG must undo it
        assert [flag for flag in line.split() if flag.endswith("NDEBUG")][-1] == "-UNDEBUG", line
        assert not [flag for flag in line.split() if flag.startswith(("-mavx", "-DCPU_CAPABILITY"))], line
    assert "building the CPU kernels only" in result.stdout
    assert [path.name.split(".")[0] for path in package.glob("_C*.so")] == ["_C"]
    assert built.is_dir() and not any(path.exists() for path in stale)
    project.run_tests(project_dir, ["-k", "cpu and (forward or backward) and not compile"])


def _build_config_of(project_dir):
    spec = importlib.util.spec_from_file_location("build_config", project_dir / "build_config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cpu_has(*flags: str) -> bool:
    """Whether this machine's CPU has these /proc/cpuinfo flags (False where there is no such file)."""
    cpuinfo = Path("/proc/cpuinfo")
    return cpuinfo.is_file() and set(flags) <= set(cpuinfo.read_text().split())


AVX512_MACHINE = {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx2", "fma", "f16c", "sse4_2"}


@pytest.mark.parametrize(
    ("env", "machine", "gcc", "module", "present", "absent"),
    [
        (
            {},
            AVX512_MACHINE,
            12,
            "_C_avx512",
            ["-mavx512f", "-mavx512bw", "-DCPU_CAPABILITY=AVX512", "-Wno-maybe-uninitialized"],
            ["-DCPU_CAPABILITY_AVX2"],
        ),
        ({}, AVX512_MACHINE, 13, "_C_avx512", ["-mavx512dq", "-DCPU_CAPABILITY_AVX512"], ["-Wno-maybe-uninitialized"]),
        ({}, AVX512_MACHINE, 0, "_C_avx512", ["-mavx512vl"], ["-Wno-maybe-uninitialized"]),  # clang
        ({}, AVX512_MACHINE - {"avx512dq"}, 12, "_C_avx2", ["-mavx2", "-mfma", "-DCPU_CAPABILITY_AVX2"], ["-mavx512f"]),
        (
            {},
            {"avx2", "fma", "f16c"},
            12,
            "_C_avx2",
            ["-mavx2", "-mf16c", "-DCPU_CAPABILITY=AVX2"],
            ["-mavx512f", "-Wno-maybe-uninitialized"],
        ),
        ({}, {"avx2", "f16c"}, 12, "_C", [], ["-mavx2"]),  # no FMA: ATen's AVX2 vectors need it
        ({}, set(), 12, "_C", [], ["-mavx2"]),  # not x86-64, or /proc/cpuinfo unreadable
        ({"CPU_ISA": "avx2"}, AVX512_MACHINE, 12, "_C_avx2", ["-mavx2", "-DCPU_CAPABILITY_AVX2"], ["-mavx512f"]),
        (
            {"CPU_ISA": "AVX512"},
            {"avx2", "fma", "f16c"},
            12,
            "_C_avx512",
            ["-mavx512vl", "-DCPU_CAPABILITY_AVX512"],
            [],
        ),
        ({"CPU_ISA": "portable"}, AVX512_MACHINE, 12, "_C", [], ["-mavx2", "-mavx512f"]),
        ({"PORTABLE_CPU": "1"}, AVX512_MACHINE, 12, "_C", [], ["-mavx2", "-mavx512f"]),
    ],
)
def test_cpu_isa_picks_the_cpu_loops_flags_and_module_name(
    render_project, monkeypatch, env, machine, gcc, module, present, absent
):
    """The CPU loops' instruction set: CPU_ISA, PORTABLE_CPU, else the widest the machine runs (flags
    read from /proc/cpuinfo, here made up); the module's name and the wheel's label say which, and the
    flags follow it (GCC before 13 quieted on AVX512's headers)."""
    config = _build_config_of(render_project(activation="relu"))
    for name in ("CPU_ISA", "PORTABLE_CPU"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(config, "cpu_flags_of_this_machine", lambda: set(machine))
    monkeypatch.setattr(config, "gcc_major", lambda: gcc)
    monkeypatch.setattr(config, "is_x86_64", lambda: True)
    flags = config.cxx_flags(debug=False)
    assert config.module_name() == module
    assert all(flag in flags for flag in present), flags
    assert not any(flag in flags for flag in absent), flags
    label = "" if module == "_C" else "." + module.removeprefix("_C_")
    assert config.wheel_version("2.13.0+cpu", None, config.cpu_isa()) == f"0.1.0+torch2.13.cpu{label}"
    if module == "_C":
        assert not [flag for flag in flags if flag.startswith(("-mavx", "-mfma", "-DCPU_CAPABILITY"))], flags


def test_the_package_knows_every_library_name_the_build_gives(render_project):
    """The wheel carries no build_config.py, so the package's __init__ names the libraries itself: the
    same names as build_config.MODULE_NAMES, and for each instruction set the features of
    build_config.CPU_ISA_NEEDS."""
    project_dir = render_project(activation="relu")
    config = _build_config_of(project_dir)
    init = (project_dir / "src" / "fused_bias_activation" / "__init__.py").read_text()
    assert "{" + ", ".join(f'"{name}"' for name in sorted(config.MODULE_NAMES)) + "}" in init
    # Its feature lists are build_config's (/proc/cpuinfo's names) in torch.cpu.get_capabilities' names.
    needs = {}
    for node in ast.walk(ast.parse(init)):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "_needs":
            needs.update(ast.literal_eval(node.value))
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
            target = node.targets[0]
            if isinstance(target.value, ast.Name) and target.value.id == "_needs":
                needs[ast.literal_eval(target.slice)] = ast.literal_eval(node.value)

    def torch_name(flag: str) -> str:
        return {"fma": "fma3"}.get(flag, flag.replace("avx512", "avx512_") if flag.startswith("avx512") else flag)

    expected = {isa: {torch_name(flag) for flag in flags} for isa, flags in config.CPU_ISA_NEEDS.items() if flags}
    assert {isa: set(features) for isa, features in needs.items()} == expected
    if hasattr(torch.cpu, "get_capabilities"):  # the names are torch's
        assert set().union(*expected.values()) <= set(torch.cpu.get_capabilities())


def test_build_config_asks_about_the_cxx_torchs_build_compiles_with(render_project, monkeypatch):
    """gcc_major (GCC-only warning flags) and the OpenMP probe ask the compiler that torch's ninja
    build runs: $CXX, else c++ (cpp_extension.get_cxx_compiler), not sysconfig's CXX."""
    from torch.utils import cpp_extension

    config = _build_config_of(render_project(activation="relu"))
    monkeypatch.delenv("CXX", raising=False)
    assert config.cxx_compiler() == [cpp_extension.get_cxx_compiler()] == ["c++"]
    monkeypatch.setenv("CXX", "ccache g++-12")
    assert config.cxx_compiler() == ["ccache", "g++-12"]


def test_a_build_for_this_machines_instruction_set_prints_no_compiler_warning(render_project):
    """The default build (this machine's widest set: AVX512 on CI, whose GCC 12 warns falsely on its
    AVX512 headers without build_config's -Wno-maybe-uninitialized) compiles without a warning."""
    result = _setup_py(render_project(activation="relu"), {"USE_CUDA": "0", "MAX_JOBS": "2"})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    output = result.stdout + result.stderr
    assert "warning:" not in output, output[output.index("warning:") - 2000 :][:4000]


def test_an_x86_64_instruction_set_is_refused_on_another_architecture(render_project, monkeypatch):
    config = _build_config_of(render_project(activation="relu"))
    monkeypatch.setattr(config, "is_x86_64", lambda: False)
    monkeypatch.delenv("PORTABLE_CPU", raising=False)
    monkeypatch.delenv("CPU_ISA", raising=False)
    assert config.cpu_isa() == "portable" and config.cpu_vector_flags() == []
    monkeypatch.setenv("CPU_ISA", "avx2")
    with pytest.raises(ValueError, match="CPU_ISA=avx2 is an x86-64 instruction set"):
        config.cpu_isa()


@pytest.mark.skipif(not Path("/proc/cpuinfo").is_file(), reason="reads /proc/cpuinfo")
def test_the_cpu_flags_are_read_from_proc_cpuinfo_as_torch_sees_them(render_project):
    """cpu_flags_of_this_machine on this machine (not made up): the sets it finds agree with torch's own
    reading of the CPU (torch.cpu.get_capabilities)."""
    if not hasattr(torch.cpu, "get_capabilities"):
        pytest.skip("this torch has no torch.cpu.get_capabilities")
    flags = _build_config_of(render_project(activation="relu")).cpu_flags_of_this_machine()
    capabilities = torch.cpu.get_capabilities()
    if platform.machine().lower() not in ("x86_64", "amd64"):
        assert flags == set()
        return
    for ours, torchs in [
        ("avx2", "avx2"),
        ("fma", "fma3"),
        ("f16c", "f16c"),
        ("avx512f", "avx512_f"),
        ("avx512bw", "avx512_bw"),
    ]:
        assert (ours in flags) == bool(capabilities.get(torchs)), (ours, torchs)


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
    assert "Traceback" not in result.stderr  # a message, not a crash


@pytest.mark.skipif(platform.machine().lower() not in ("x86_64", "amd64"), reason="x86-64 instruction sets")
@pytest.mark.skipif("ATEN_CPU_CAPABILITY" in os.environ, reason="ATen's capability is set by hand here")
def test_by_default_the_cpu_loops_are_as_wide_as_eager_pytorchs(render_project, monkeypatch):
    """Unset, CPU_ISA is the set that ATen's own CPU kernels use on this machine (AVX512 or AVX2)."""
    for name in ("CPU_ISA", "PORTABLE_CPU"):
        monkeypatch.delenv(name, raising=False)
    aten = torch.backends.cpu.get_cpu_capability().lower()
    if aten not in ("avx512", "avx2"):
        pytest.skip(f"ATen runs {aten} vectors here")
    assert _build_config_of(render_project(activation="relu")).cpu_isa() == aten


def _import(project_dir, lacking: str | None, env=None):
    """`import fused_bias_activation` from the project's src/, torch told that the CPU lacks `lacking`
    (torch.cpu.get_capabilities and the older checks), or told nothing."""
    script = "import sys, torch\n"
    if lacking:
        script += (
            f"capabilities = dict(torch.cpu.get_capabilities(), {lacking}=False)\n"
            "torch.cpu.get_capabilities = lambda: capabilities\n"
            "torch.cpu._is_avx512_supported = lambda: capabilities['avx512_f']  # older torch's check\n"
        )
    script += "sys.path.insert(0, 'src')\nimport fused_bias_activation\n"
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=project_dir,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize(("isa", "lacking"), [("avx512", "avx512_bw"), ("avx512", "avx512_f"), ("avx2", "fma3")])
def test_a_library_for_an_instruction_set_the_cpu_lacks_is_refused_on_import(render_project, isa, lacking):
    """The package imports _C_<isa> only where torch says the CPU has every feature its flags need (one
    missing is enough to refuse), with an ImportError that says how to rebuild. (A stand-in file: the
    check comes before the library is loaded.)"""
    project_dir = render_project(activation="relu")
    (project_dir / "src" / "fused_bias_activation" / f"_C_{isa}.abi3.so").write_bytes(b"")
    refused = _import(project_dir, lacking)
    assert refused.returncode != 0
    assert f"CPU loops are built for {isa.upper()}, which this CPU lacks" in refused.stderr, refused.stderr[-2000:]
    assert "CPU_ISA=avx2" in refused.stderr and "CPU_ISA=portable" in refused.stderr


@pytest.mark.skipif(
    not _cpu_has("avx512f", "avx512bw", "avx512vl", "avx512dq", "fma", "f16c"), reason="needs an AVX512 CPU"
)
def test_on_an_avx512_cpu_torchs_own_checks_let_an_avx512_library_load(render_project):
    """torch's real checks (not told anything): past them, the stand-in itself is loaded (and is no library)."""
    project_dir = render_project(activation="relu")
    (project_dir / "src" / "fused_bias_activation" / "_C_avx512.abi3.so").write_bytes(b"")
    result = _import(project_dir, None)
    assert (
        result.returncode != 0 and "_C_avx512.abi3.so" in result.stderr and "which this CPU lacks" not in result.stderr
    )


def test_libraries_of_several_instruction_sets_are_refused_on_import(render_project):
    project_dir = render_project(activation="relu")
    for name in ("_C_avx2", "_C_avx512"):
        (project_dir / "src" / "fused_bias_activation" / f"{name}.abi3.so").write_bytes(b"")
    result = _import(project_dir, None)
    assert result.returncode != 0
    assert "libraries built for several instruction sets (_C_avx2, _C_avx512" in result.stderr, result.stderr[-2000:]


def test_a_jit_build_for_an_instruction_set_the_cpu_lacks_is_refused_before_it_compiles(render_project):
    """With <PACKAGE>_JIT=1 the package compiles csrc/ for CPU_ISA (or this machine's set): where torch
    says the CPU lacks it, the import stops with the message before compiling anything."""
    project_dir = render_project(activation="relu")
    env = {"FUSED_BIAS_ACTIVATION_JIT": "1", "CPU_ISA": "avx512", "USE_CUDA": "0"}
    result = _import(project_dir, "avx512_vl", env)
    assert result.returncode != 0
    assert "CPU loops are built for AVX512, which this CPU lacks" in result.stderr, result.stderr[-2000:]
    assert not (project_dir / "build").exists()  # nothing compiled


@pytest.mark.skipif(not _cpu_has("avx2", "fma", "f16c"), reason="needs an AVX2 CPU")
def test_the_row_norm_cpu_loops_built_for_avx2_pass_their_cpu_tests(render_project):
    """The row normalization family's loops as a machine without AVX512 builds them (CPU_ISA=avx2;
    this machine's own build is the widest it runs): the LayerNorm project's CPU tests of forward,
    backward and far rows."""
    project_dir = render_project(family="row_norm", norm="layer_norm")
    result = _setup_py(project_dir, {"USE_CUDA": "0", "CPU_ISA": "avx2", "MAX_JOBS": "2"})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    package = next((project_dir / "src").iterdir())
    assert [path.name.split(".")[0] for path in package.glob("_C*.so")] == ["_C_avx2"]
    project.run_tests(project_dir, ["-k", "cpu and (forward or backward or far) and not compile"])


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
