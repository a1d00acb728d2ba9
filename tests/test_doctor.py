"""The preflight doctor (template/doctor.py, also `scaffold doctor`) against made-up environments:
fake nvcc and compiler scripts that print other versions, a fake CPU-only or CUDA torch, no ninja,
and GPUs that TORCH_CUDA_ARCH_LIST does not cover."""

from __future__ import annotations

import os
import shutil
import stat
from types import SimpleNamespace

import pytest

from scaffold import cli
from scaffold import doctor as scaffold_doctor

doctor = scaffold_doctor.load()


def fake_torch(cuda: str | None, gpus: list[tuple[str, tuple[int, int]]] = ()):
    return SimpleNamespace(
        __version__="2.9.0" + ("+cpu" if cuda is None else f"+cu{cuda.replace('.', '')}"),
        version=SimpleNamespace(cuda=cuda),
        cuda=SimpleNamespace(
            is_available=lambda: bool(gpus),
            device_count=lambda: len(gpus),
            get_device_name=lambda i: gpus[i][0],
            get_device_capability=lambda i: gpus[i][1],
        ),
    )


def script(directory, name, output):
    path = directory / name
    path.write_text(f"#!/bin/sh\ncat <<'EOF'\n{output}\nEOF\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def nvcc_output(version):
    return f"nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release {version}, V{version}.1"


@pytest.fixture
def machine(tmp_path):
    """A PATH of fake tools; returns a function that gathers the environment they make."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()

    def make(
        nvcc="12.4",
        gxx="g++ (GCC) 12.3.0",
        gcc="gcc (GCC) 12.3.0",
        ninja=True,
        cuda="12.4",
        gpus=(),
        arch_list=None,
        env_cc=None,
        env_cxx="g++",
    ):
        """Fake tools on PATH: nvcc, g++ and gcc (each printing its version), ninja. CC and CXX name
        tools in that folder (env_cxx=None leaves CXX unset)."""
        for tool in bin_dir.iterdir():
            tool.unlink()
        if nvcc:
            script(bin_dir, "nvcc", nvcc_output(nvcc))
        if gxx:
            script(bin_dir, "g++", gxx)
        if gcc:
            script(bin_dir, "gcc", gcc)
        if ninja:
            script(bin_dir, "ninja", "1.11.1")
        env = {"PATH": str(bin_dir)}
        if env_cxx:
            env["CXX"] = str(bin_dir / env_cxx)
        if env_cc:
            env["CC"] = str(bin_dir / env_cc)
        if arch_list:
            env["TORCH_CUDA_ARCH_LIST"] = arch_list
        # The C++ runtime probe links a real library: tested below with real compilers.
        return doctor.gather(
            env, fake_torch(cuda, list(gpus)), default_home=str(tmp_path / "no-cuda-here"), probe_runtime=False
        )

    return make


def by_check(findings):
    return {finding.check: finding for finding in findings}


def test_a_healthy_machine_has_no_problem(machine):
    environment = machine(gpus=[("0: H100", (9, 0))], arch_list="9.0")
    environment.cxx_runtime = "dynamic"
    findings = doctor.diagnose(environment)
    assert doctor.problems(findings) == [] and {f.status for f in findings} == {doctor.OK}


def test_cpu_only_torch(machine):
    environment = machine(cuda=None)
    assert environment.torch_cuda is None
    wanted = by_check(doctor.diagnose(environment, want_cuda=True))["torch"]
    assert (
        wanted.status == doctor.PROBLEM and "CPU-only build" in wanted.message and "CUDA build of torch" in wanted.fix
    )
    assert by_check(doctor.diagnose(environment, want_cuda=False))["torch"].status == doctor.WARNING


def test_nvcc_not_found(machine):
    finding = by_check(doctor.diagnose(machine(nvcc=None)))["nvcc"]
    assert finding.status == doctor.PROBLEM and "nvcc not found" in finding.message
    assert "CUDA_HOME" in finding.fix and "12.4" in finding.fix


def test_nvcc_of_another_major_version(machine):
    finding = by_check(doctor.diagnose(machine(nvcc="11.8", cuda="12.4")))["nvcc"]
    assert finding.status == doctor.PROBLEM and "another major version" in finding.message
    assert "CUDA 12.x toolkit" in finding.fix


def test_nvcc_of_another_minor_version(machine):
    finding = by_check(doctor.diagnose(machine(nvcc="12.1", cuda="12.4")))["nvcc"]
    assert finding.status == doctor.WARNING and "minor version" in finding.message


@pytest.mark.parametrize(
    ("nvcc", "compiler", "limit"),
    [("12.4", "gcc (GCC) 14.2.0", "gcc <= 13"), ("11.8", "gcc (Ubuntu 12.3.0-1) 12.3.0", "gcc <= 11")],
)
def test_nvcc_host_compiler_newer_than_nvcc_supports(machine, nvcc, compiler, limit):
    # nvcc compiles host code with the gcc on PATH when CC is unset.
    finding = by_check(doctor.diagnose(machine(nvcc=nvcc, cuda=nvcc, gcc=compiler)))["nvcc host compiler"]
    assert finding.status == doctor.PROBLEM and limit in finding.message
    assert "CC=<that gcc> CXX=<its g++>" in finding.fix


def test_nvcc_follows_cc_not_cxx(machine, tmp_path):
    # nvcc 12.4 accepts gcc 13. CC=gcc-13 passes even where the g++ on PATH is 14; CXX=g++-13 alone
    # does not help nvcc, which still uses the gcc 14 on PATH.
    bin_dir = tmp_path / "bin"
    default = machine(nvcc="12.4", gxx="g++ (GCC) 14.2.0", gcc="gcc (GCC) 14.2.0", env_cxx=None)
    script(bin_dir, "gcc-13", "gcc-13 (GCC) 13.3.0")
    script(bin_dir, "g++-13", "g++-13 (GCC) 13.3.0")
    assert by_check(doctor.diagnose(default))["nvcc host compiler"].status == doctor.PROBLEM
    env = {"PATH": str(bin_dir), "CC": str(bin_dir / "gcc-13")}
    with_cc = doctor.gather(env, fake_torch("12.4"), default_home=str(tmp_path / "none"), probe_runtime=False)
    assert by_check(doctor.diagnose(with_cc))["nvcc host compiler"].status == doctor.OK
    env = {"PATH": str(bin_dir), "CXX": str(bin_dir / "g++-13")}
    with_cxx = doctor.gather(env, fake_torch("12.4"), default_home=str(tmp_path / "none"), probe_runtime=False)
    assert by_check(doctor.diagnose(with_cxx))["nvcc host compiler"].status == doctor.PROBLEM
    assert with_cxx.cxx == str(bin_dir / "g++-13")  # C++ sources: $CXX


def test_the_cxx_checked_without_cxx_is_the_c_plus_plus_torchs_build_runs(tmp_path, monkeypatch):
    # torch's ninja build compiles the C++ sources with $CXX, else c++ on PATH
    # (cpp_extension.get_cxx_compiler), not with the compiler Python was configured with (sysconfig's
    # CXX, a conda compiler where Python is conda's).
    from torch.utils import cpp_extension

    monkeypatch.delenv("CXX", raising=False)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script(bin_dir, cpp_extension.get_cxx_compiler(), "c++ (GCC) 13.3.0")
    script(bin_dir, "g++", "g++ (GCC) 12.2.0")
    assert doctor.cxx_compiler({"PATH": str(bin_dir)}) == str(bin_dir / "c++")
    assert doctor.cxx_compiler({"PATH": str(bin_dir), "CXX": "g++"}) == str(bin_dir / "g++")


def test_clang_is_checked_against_its_own_limit(machine):
    environment = machine(nvcc="12.4", gcc="clang version 19.1.0")
    assert "clang <= 17" in by_check(doctor.diagnose(environment))["nvcc host compiler"].message


def test_a_supported_compiler_passes(machine):
    environment = machine(nvcc="13.0", cuda="13.0", gcc="gcc (GCC) 15.1.0")
    assert by_check(doctor.diagnose(environment))["nvcc host compiler"].status == doctor.OK


def wrapper(directory, name, real, *extra):
    """A compiler that runs the real one with extra arguments, as a vendor's wrapper script does."""
    path = directory / name
    path.write_text(f'#!/bin/sh\nexec {real} "$@" {" ".join(extra)}\n')
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


@pytest.mark.skipif(shutil.which("g++") is None or shutil.which("nm") is None, reason="needs g++ and nm")
def test_a_compiler_that_links_libstdcxx_statically_is_a_problem(tmp_path):
    # Linked into the extension, its own libstdc++ makes the first C++ exception crash the process
    # (seen with a vendor compiler on a GPU machine). The probe links a real library to see it.
    env = dict(os.environ)
    runtime, _ = doctor.cxx_runtime(env)
    assert runtime == "dynamic"  # this machine's compilers
    env["CC"] = wrapper(tmp_path, "gcc", shutil.which("gcc"), "-static-libstdc++")
    env["CXX"] = wrapper(tmp_path, "g++", shutil.which("g++"), "-static-libstdc++")
    environment = doctor.gather(env)
    assert environment.cxx_runtime == "static"
    finding = by_check(doctor.diagnose(environment, want_cuda=False))["C++ runtime"]
    assert finding.status == doctor.PROBLEM and "own copy of libstdc++" in finding.message
    assert "CC=" in finding.fix and "CXX=" in finding.fix


def test_no_ninja(machine):
    finding = by_check(doctor.diagnose(machine(ninja=False)))["ninja"]
    assert finding.status == doctor.WARNING and finding.fix == "pip install ninja"


@pytest.mark.parametrize(
    ("arch_list", "capability", "status"),
    [
        ("8.0", (9, 0), doctor.PROBLEM),  # no machine code for the GPU
        ("8.0+PTX", (9, 0), doctor.OK),  # PTX compiled by the driver
        ("8.0;9.0", (9, 0), doctor.OK),
        ("8.6", (8, 9), doctor.OK),  # same major version, older minor: runs
        ("9.0", (8, 6), doctor.PROBLEM),  # newer than the GPU
    ],
)
def test_visible_gpus_against_the_arch_list(machine, arch_list, capability, status):
    findings = doctor.diagnose(machine(gpus=[("0: some GPU", capability)], arch_list=arch_list))
    gpu = by_check(findings)["GPUs"]
    assert gpu.status == status
    if status == doctor.PROBLEM:
        assert f"add {capability[0]}.{capability[1]} to TORCH_CUDA_ARCH_LIST" in gpu.fix


def test_an_architecture_the_toolkit_dropped(machine):
    findings = doctor.diagnose(machine(nvcc="13.0", cuda="13.0", arch_list="7.0;9.0"))
    assert any(f.status == doctor.PROBLEM and "cannot build for 7.0" in f.message for f in findings)


def test_an_unreadable_arch_list(machine):
    findings = doctor.diagnose(machine(arch_list="sm_90"))
    assert any(f.status == doctor.PROBLEM and "names no architecture" in f.message for f in findings)


def test_the_report_states_each_problem_with_its_fix(machine):
    text = doctor.report(doctor.diagnose(machine(nvcc="11.8", ninja=False)))
    assert "[problem] nvcc" in text and "fix: use a CUDA 12.x toolkit" in text and "fix: pip install ninja" in text


def test_scaffold_doctor_runs_on_this_machine(capsys):
    assert cli.main(["doctor", "--cpu"]) == 0
    output = capsys.readouterr().out
    assert "C++ compiler" in output and "C++ runtime" in output and "libstdc++ shared with the process" in output
