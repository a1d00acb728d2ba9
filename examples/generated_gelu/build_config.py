"""What the extension is built from and with, for both ways of building it.

setup.py builds it ahead of time (pip install / python setup.py build_ext --inplace); with
GENERATED_GELU_JIT=1, `import generated_gelu` compiles the same sources
with the same flags just in time (torch.utils.cpp_extension.load; ninja rebuilds only what changed).
"""

from __future__ import annotations

import functools
import hashlib
import os
import platform
import shlex
import subprocess
import tempfile
from pathlib import Path

PACKAGE = "generated_gelu"
VERSION = "0.1.0"
ROOT = Path(__file__).resolve().parent
CSRC = ROOT / "csrc"
# Used when TORCH_CUDA_ARCH_LIST is unset and no GPU is visible (torch would find no architecture).
DEFAULT_CUDA_ARCH_LIST = "8.0;9.0+PTX"


def env_flag(name: str) -> bool | None:
    value = os.environ.get(name)
    return None if value is None else value.strip().lower() in ("1", "true", "yes", "on")


def sources(cuda: bool) -> list[Path]:
    """Every C++ source in csrc/, and every CUDA source when building the CUDA kernels."""
    found = sorted(CSRC.glob("*.cpp"))
    return found + sorted(CSRC.glob("*.cu")) if cuda else found


# The CPU loops use ATen's CPU vectors (at::vec::Vectorized), compiled for one instruction set: the
# module's name says which (_C_avx512, _C_avx2, or _C for any CPU), as does the wheel's version label,
# and importing it on a CPU without that set fails with a message rather than a crash. CPU_ISA
# chooses it; unset, the widest that this machine runs and ATen has vectors for: AVX512 (its F, BW,
# VL and DQ parts, as ATen's own AVX512 kernels need) where the CPU has it, else AVX2 (with FMA and
# F16C), else none (read from /proc/cpuinfo: on Linux; elsewhere, and on other architectures, none).
# Eager PyTorch picks the same at run time, so the extension's loops are as wide as those it is
# measured against. On an AVX512 machine (2026-11-29, lab instruction_sets in the RMSNorm example's
# benchmarks/results/cpu/labs/), LayerNorm's bfloat16 loops at 256 x 1024 took 0.56 to 0.66 times
# the time of their AVX2 build. A wheel for other machines: CPU_ISA=avx2 runs on x86-64 CPUs since
# about 2015, CPU_ISA=portable (or PORTABLE_CPU=1) on any.
CPU_ISA_FLAGS = {
    "avx512": ["-mavx512f", "-mavx512bw", "-mavx512vl", "-mavx512dq", "-mavx2", "-mfma", "-mf16c"],
    "avx2": ["-mavx2", "-mfma", "-mf16c"],
    "portable": [],
}
# The /proc/cpuinfo flags each instruction set needs.
CPU_ISA_NEEDS = {
    "avx512": {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx2", "fma", "f16c"},
    "avx2": {"avx2", "fma", "f16c"},
    "portable": set(),
}


def is_x86_64() -> bool:
    return platform.machine().lower() in ("x86_64", "amd64")


def cpu_flags_of_this_machine() -> set[str]:
    """The CPU's feature flags (/proc/cpuinfo), or none where they cannot be read or it is not x86-64."""
    if not is_x86_64():
        return set()
    try:
        return next(
            set(line.split(":", 1)[1].split())
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("flags")
        )
    except (OSError, StopIteration):
        return set()


def cpu_isa() -> str:
    """The instruction set of the CPU loops: CPU_ISA, or "portable" with PORTABLE_CPU=1, or the widest
    that this machine runs. ValueError for a CPU_ISA that is unknown, contradicts PORTABLE_CPU, or is an
    x86-64 set on another architecture."""
    chosen = os.environ.get("CPU_ISA", "").strip().lower()
    if chosen and chosen not in CPU_ISA_FLAGS:
        expected = ", ".join(CPU_ISA_FLAGS)
        raise ValueError(f"CPU_ISA={chosen!r}: expected one of {expected} (or leave it unset)")
    if env_flag("PORTABLE_CPU"):
        if chosen not in ("", "portable"):
            raise ValueError(f"PORTABLE_CPU=1 and CPU_ISA={chosen} contradict each other: set one of them")
        return "portable"
    if chosen not in ("", "portable") and not is_x86_64():
        raise ValueError(f"CPU_ISA={chosen} is an x86-64 instruction set, and this is {platform.machine()}")
    if chosen:
        return chosen
    flags = cpu_flags_of_this_machine()
    return next(isa for isa, needs in CPU_ISA_NEEDS.items() if needs <= flags)


def cpu_vector_flags() -> list[str]:
    """The compiler's flags for the CPU loops' instruction set, and the macros that select ATen's vectors."""
    isa = cpu_isa()
    if isa == "portable":
        return []
    # GCC before 13 warns, falsely, on uses of its own AVX512 headers' _mm512_undefined_* (GCC bug
    # 105593), many times a build.
    quiet = ["-Wno-maybe-uninitialized"] if isa == "avx512" and gcc_major() in range(1, 13) else []
    return [*CPU_ISA_FLAGS[isa], *quiet, f"-DCPU_CAPABILITY={isa.upper()}", f"-DCPU_CAPABILITY_{isa.upper()}"]


def module_name() -> str:
    """The compiled module's name: _C_<instruction set> where its CPU loops need one, else _C."""
    isa = cpu_isa()
    return "_C" if isa == "portable" else f"_C_{isa}"


MODULE_NAMES = ("_C", *(f"_C_{isa}" for isa in CPU_ISA_FLAGS if isa != "portable"))


def cxx_compiler() -> list[str]:
    """The C++ compiler the build compiles the C++ sources with: CXX, else c++ on PATH, the rule of
    torch.utils.cpp_extension.get_cxx_compiler, which names the compiler of its ninja build (doctor.py
    checks the same one)."""
    return shlex.split(os.environ.get("CXX") or "c++")


@functools.cache
def gcc_major() -> int:
    """The C++ compiler's major version where it is GCC; 0 where it is another (clang) or unknown."""
    try:
        compiler = cxx_compiler()
        banner = subprocess.run([*compiler, "--version"], capture_output=True, text=True, timeout=60).stdout
        if "clang" in banner.lower() or "Free Software Foundation" not in banner:
            return 0
        version = subprocess.run([*compiler, "-dumpversion"], capture_output=True, text=True, timeout=60)
        return int(version.stdout.strip().split(".")[0])
    except (OSError, subprocess.SubprocessError, ValueError):
        return 0


@functools.cache
def openmp_flags() -> tuple[str, ...]:
    """-fopenmp where torch runs its CPU threads with OpenMP and the C++ compiler has it: then
    at::parallel_for in the CPU loops is parallel (without it, it compiles to a serial loop)."""
    try:
        import torch

        if not torch.backends.openmp.is_available():
            return ()
    except ImportError:
        return ()
    compiler = cxx_compiler()
    with tempfile.TemporaryDirectory() as scratch:
        probe = Path(scratch) / "probe.cpp"
        probe.write_text("#include <omp.h>\nint main() { return omp_get_max_threads() > 0 ? 0 : 1; }\n")
        try:
            result = subprocess.run(
                [*compiler, "-fopenmp", str(probe), "-o", str(Path(scratch) / "probe")],
                capture_output=True,
                timeout=60,
            )
        except (OSError, subprocess.SubprocessError):
            return ()
    return ("-fopenmp",) if result.returncode == 0 else ()


def torch_release(torch_version: str) -> str:
    """'2.13' for '2.13.0+cu130': the release whose C++ API the library is compiled against."""
    return ".".join(torch_version.split("+")[0].split(".")[:2])


def wheel_version(torch_version: str, cuda_version: str | None, isa: str) -> str:
    """The package version with the build's torch release, variant and the CPU loops' instruction set
    (none for portable loops) as a local label: 0.1.0+torch2.13.cu130.avx512, 0.1.0+torch2.13.cpu."""
    variant = f"cu{cuda_version.replace('.', '')}" if cuda_version else "cpu"
    loops = "" if isa == "portable" else f".{isa}"
    return f"{VERSION}+torch{torch_release(torch_version)}.{variant}{loops}"


def torch_requirement(torch_version: str) -> str:
    """The torch the built library imports with: its own release, any patch level."""
    return f"torch=={torch_release(torch_version)}.*"


def csrc_files(csrc: Path = CSRC) -> dict[str, bytes]:
    """Every file of a csrc/ folder: {path relative to it: contents}."""
    return {p.relative_to(csrc).as_posix(): p.read_bytes() for p in csrc.rglob("*") if p.is_file()}


def files_digest(files: dict[str, bytes]) -> str:
    """SHA-256 of csrc/ files given as {path relative to csrc/: contents} (names and contents)."""
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name] + b"\0")
    return digest.hexdigest()


def source_digest() -> str:
    """SHA-256 of every file in csrc/ (names and contents): which kernels a measurement measured."""
    return files_digest(csrc_files())


# Debug builds: no optimization, debug information, and assertions on. -UNDEBUG comes after the
# -DNDEBUG that Python's own compile flags put first, so assert() and TORCH_INTERNAL_ASSERT_DEBUG_ONLY
# check again.
DEBUG_FLAGS = ["-O0", "-g", "-UNDEBUG"]


def cxx_flags(debug: bool) -> list[str]:
    # -Wno-unknown-pragmas: ATen's CPU vector headers carry `#pragma unroll`, which gcc does not know.
    # -g0 undoes the -g of Python's own compile flags: debug information for ATen's vector templates
    # more than doubles the compile time of an operator's .cpp and makes its object 25 times larger.
    optimization = DEBUG_FLAGS if debug else ["-O3", "-g0"]
    warnings = ["-Wno-unknown-pragmas", "-fdiagnostics-color=always"]
    return [*optimization, *cpu_vector_flags(), *openmp_flags(), *warnings]


def nvcc_flags(debug: bool) -> list[str]:
    return ([*DEBUG_FLAGS, "-G"] if debug else ["-O3", "-lineinfo"]) + ["--threads=4"]


def link_flags(debug: bool) -> list[str]:
    return (["-O0", "-g"] if debug else []) + list(openmp_flags())
