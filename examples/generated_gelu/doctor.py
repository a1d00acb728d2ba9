"""Preflight checks for building this extension: each problem stated with its fix.

    python doctor.py          # check this machine (exit code 1 if a CUDA build would fail)
    python doctor.py --cpu    # only what a CPU build needs

setup.py runs the same checks before every build (SKIP_DOCTOR=1 skips them). They cover what costs
extension authors their days: a CPU-only torch, nvcc missing, a CUDA toolkit of another major version
than torch's, a host compiler newer than nvcc supports, a compiler that links its own copy of the C++
runtime into shared libraries, no ninja, and GPUs that TORCH_CUDA_ARCH_LIST does not cover.

The compilers checked are those the build runs: C++ sources are compiled with $CXX, or else c++ on
PATH (torch's ninja build: torch.utils.cpp_extension.get_cxx_compiler); the library is linked as
setuptools links it ($LDSHARED, or Python's LDSHARED with $CC in place of its compiler); nvcc
compiles host code with $CC (torch passes it as -ccbin), or else with the gcc on PATH.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

OK, WARNING, PROBLEM = "ok", "warning", "problem"

# Newest host compiler major version each CUDA release accepts (the CUDA installation guides'
# "supported host compilers"; newer compilers are refused by nvcc's host_config.h).
MAX_GCC = {(11, 8): 11, (12, 0): 12, (12, 1): 12, (12, 2): 12, (12, 3): 12, (12, 4): 13, (12, 5): 13,
           (12, 6): 13, (12, 8): 14, (12, 9): 14, (13, 0): 15}  # fmt: skip
MAX_CLANG = {(11, 8): 14, (12, 0): 14, (12, 1): 15, (12, 2): 15, (12, 3): 16, (12, 4): 17, (12, 5): 17,
             (12, 6): 18, (12, 8): 19, (12, 9): 19, (13, 0): 20}  # fmt: skip
# Oldest GPU architecture each CUDA major version compiles for.
MIN_ARCH = {11: (3, 5), 12: (5, 0), 13: (7, 5)}


@dataclass
class Finding:
    check: str
    status: str
    message: str
    fix: str = ""


@dataclass
class Environment:
    """What the checks look at; gather() reads it off this machine, tests make it up."""

    torch_version: str | None
    torch_cuda: str | None  # torch.version.cuda: None for a CPU-only build
    nvcc: str | None  # path
    nvcc_version: str | None  # "12.4"
    cxx: str | None  # compiles the C++ sources
    cxx_version_text: str | None  # first line of `$CXX --version`
    ninja: str | None  # path
    nvcc_host: str | None = None  # compiles nvcc's host code
    nvcc_host_version_text: str | None = None
    # How a shared library linked as the build links it gets the C++ runtime: "dynamic" (from the
    # process, as torch does), "static" (its own copy), or None if it could not be told.
    cxx_runtime: str | None = None
    linker: str | None = None
    gpus: list[tuple[str, tuple[int, int]]] = field(default_factory=list)  # (name, capability)
    arch_list: str | None = None  # TORCH_CUDA_ARCH_LIST


def _version_tuple(text: str | None) -> tuple[int, ...] | None:
    match = re.match(r"(\d+)\.(\d+)", text or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def _output(command: list[str]) -> str | None:
    try:
        output = subprocess.run(command, capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return output


def find_nvcc(env: dict[str, str], default_home: str = "/usr/local/cuda") -> str | None:
    """Where torch.utils.cpp_extension looks: CUDA_HOME, CUDA_PATH, PATH, /usr/local/cuda."""
    for variable in ("CUDA_HOME", "CUDA_PATH"):
        if env.get(variable):
            candidate = os.path.join(env[variable], "bin", "nvcc")
            return candidate if os.path.exists(candidate) else None
    found = shutil.which("nvcc", path=env.get("PATH", ""))
    if found:
        return found
    fallback = os.path.join(default_home, "bin", "nvcc")
    return fallback if os.path.exists(fallback) else None


def nvcc_release(nvcc: str) -> str | None:
    match = re.search(r"release (\d+\.\d+)", _output([nvcc, "--version"]) or "")
    return match.group(1) if match else None


def _first_line(text: str | None) -> str | None:
    return text.splitlines()[0] if text else None


def cxx_compiler(env: dict[str, str]) -> str | None:
    """What compiles the C++ sources: $CXX, else c++ on PATH (torch's ninja build, as build_config.py)."""
    name = env.get("CXX") or "c++"
    return shutil.which(name.split()[0], path=env.get("PATH", "")) or (name if os.path.exists(name) else None)


def nvcc_host_compiler(env: dict[str, str]) -> str | None:
    """What nvcc compiles host code with: $CC (torch passes it as -ccbin), else gcc on PATH."""
    name = env.get("CC") or "gcc"
    return shutil.which(name.split()[0], path=env.get("PATH", "")) or (name if os.path.exists(name) else None)


# A C++ library that throws: linked against the process's libstdc++, __cxa_throw stays undefined in it.
_PROBE_SOURCE = """#include <stdexcept>
#include <string>
extern "C" int probe(int n) { if (n < 0) throw std::runtime_error(std::to_string(n)); return n; }
"""
_PROBE_SCRIPT = """
import sys
from setuptools._distutils.ccompiler import new_compiler
from setuptools._distutils.sysconfig import customize_compiler
compiler = new_compiler()
customize_compiler(compiler)
objects = compiler.compile([sys.argv[1]], output_dir=sys.argv[2], extra_postargs=["-fPIC"])
compiler.link_shared_object(objects, sys.argv[3], target_lang="c++")
print((getattr(compiler, "compiler_cxx", None) or compiler.linker_so)[0])  # what links C++ (distutils)
"""


def cxx_runtime(env: dict[str, str]) -> tuple[str | None, str | None]:
    """Link a small C++ library exactly as setuptools links the extension (same compilers and
    flags, from env) and tell how it gets the C++ runtime: ("static" or "dynamic", the linker), or
    (None, None) if the probe could not be built or read (no compiler, no nm)."""
    nm = shutil.which("nm", path=env.get("PATH", "")) or shutil.which("nm")
    if nm is None:
        return None, None
    with tempfile.TemporaryDirectory() as scratch:
        source, library = os.path.join(scratch, "probe.cpp"), os.path.join(scratch, "probe.so")
        with open(source, "w") as file:
            file.write(_PROBE_SOURCE)
        try:
            result = subprocess.run(
                [sys.executable, "-c", _PROBE_SCRIPT, source, scratch, library],
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )
        except (OSError, subprocess.SubprocessError):
            return None, None
        if result.returncode != 0 or not os.path.exists(library):
            return None, None
        linker = result.stdout.strip() or None
        symbols = _output([nm, "--defined-only", library]) or ""
    defined = {line.split()[-1] for line in symbols.splitlines() if line.strip()}
    return ("static" if "__cxa_throw" in defined else "dynamic"), linker


def gather(
    env: dict[str, str] | None = None,
    torch_module=None,
    default_home: str = "/usr/local/cuda",
    probe_runtime: bool = True,
) -> Environment:
    """Read the environment: torch, nvcc, the compilers the build uses, ninja, the visible GPUs."""
    env = dict(os.environ if env is None else env)
    if torch_module is None:
        try:
            import torch as torch_module
        except ImportError:
            torch_module = None
    nvcc = find_nvcc(env, default_home)
    cxx = cxx_compiler(env)
    cxx_text = _output([cxx, "--version"]) if cxx else None
    nvcc_host = nvcc_host_compiler(env)
    runtime, linker = cxx_runtime(env) if probe_runtime and cxx else (None, None)
    gpus = []
    if torch_module is not None and torch_module.cuda.is_available():
        for index in range(torch_module.cuda.device_count()):
            name = torch_module.cuda.get_device_name(index)
            gpus.append((f"{index}: {name}", tuple(torch_module.cuda.get_device_capability(index))))
    return Environment(
        torch_version=None if torch_module is None else torch_module.__version__,
        torch_cuda=None if torch_module is None else torch_module.version.cuda,
        nvcc=nvcc,
        nvcc_version=nvcc_release(nvcc) if nvcc else None,
        cxx=cxx,
        cxx_version_text=_first_line(cxx_text),
        ninja=shutil.which("ninja", path=env.get("PATH", "")),
        nvcc_host=nvcc_host,
        nvcc_host_version_text=_first_line(_output([nvcc_host, "--version"])) if nvcc_host else None,
        cxx_runtime=runtime,
        linker=linker,
        gpus=gpus,
        arch_list=env.get("TORCH_CUDA_ARCH_LIST") or None,
    )


def check_torch(e: Environment, want_cuda: bool) -> Finding:
    if e.torch_version is None:
        return Finding("torch", PROBLEM, "torch is not installed", "install PyTorch for your platform first")
    if e.torch_cuda is None:
        return Finding(
            "torch",
            PROBLEM if want_cuda else WARNING,
            f"torch {e.torch_version} is a CPU-only build: only the CPU kernels can be built",
            "for the CUDA kernels install a CUDA build of torch (see pytorch.org's install selector)",
        )
    return Finding("torch", OK, f"torch {e.torch_version}, built with CUDA {e.torch_cuda}")


def check_nvcc(e: Environment) -> Finding:
    if e.nvcc is None:
        return Finding(
            "nvcc",
            PROBLEM,
            "nvcc not found (looked at $CUDA_HOME, $CUDA_PATH, PATH and /usr/local/cuda)",
            f"install the CUDA toolkit {e.torch_cuda or ''} and set CUDA_HOME to it (or put its bin/ on "
            "PATH)",
        )
    if e.nvcc_version is None:
        return Finding("nvcc", PROBLEM, f"{e.nvcc} did not report a version", "check that this nvcc runs")
    toolkit, built = _version_tuple(e.nvcc_version), _version_tuple(e.torch_cuda)
    if built and toolkit[0] != built[0]:
        return Finding(
            "nvcc",
            PROBLEM,
            f"nvcc {e.nvcc_version} ({e.nvcc}) is CUDA {toolkit[0]}, torch was built with CUDA "
            f"{e.torch_cuda}: torch refuses to build with another major version",
            f"use a CUDA {built[0]}.x toolkit (set CUDA_HOME), or a torch built for CUDA {toolkit[0]}",
        )
    if built and toolkit != built:
        return Finding(
            "nvcc",
            WARNING,
            f"nvcc {e.nvcc_version} and torch's CUDA {e.torch_cuda} differ in the minor version "
            "(usually fine)",
            f"if the build or the import fails, use the CUDA {e.torch_cuda} toolkit",
        )
    return Finding("nvcc", OK, f"nvcc {e.nvcc_version} ({e.nvcc})")


def _compiler_version(text: str) -> tuple[str, int] | None:
    """('gcc' or 'clang', major version) from a compiler's --version line."""
    family = "clang" if "clang" in text else "gcc"
    version = re.findall(r"(\d+)\.(\d+)(?:\.\d+)?", text)
    if not version:
        return None
    return family, int(version[-1][0] if family == "gcc" else version[0][0])


def check_cxx(e: Environment) -> Finding:
    if e.cxx is None or e.cxx_version_text is None:
        return Finding(
            "C++ compiler",
            PROBLEM,
            "no C++ compiler found (looked at $CXX, else c++ on PATH)",
            "install g++ (or set CXX to a C++ compiler)",
        )
    return Finding("C++ compiler", OK, f"{e.cxx}: {e.cxx_version_text.strip()}")


def check_cxx_runtime(e: Environment) -> Finding:
    if e.cxx_runtime == "static":
        others = [path for path in _on_path("g++") if os.path.realpath(path) != os.path.realpath(e.cxx or "")]
        gxx = others[0] if others else "/usr/bin/g++"
        suggestion = f"CC={'gcc'.join(gxx.rsplit('g++', 1))} CXX={gxx}"
        return Finding(
            "C++ runtime",
            PROBLEM,
            f"a library linked as the build links it ({e.linker}) carries its own copy of libstdc++: the "
            "extension's C++ exceptions (every argument error) would then crash the process instead of "
            "reaching Python",
            f"build with a compiler that links libstdc++ dynamically, e.g. {suggestion}",
        )
    if e.cxx_runtime == "dynamic":
        return Finding("C++ runtime", OK, f"libstdc++ shared with the process ({e.linker})")
    return Finding("C++ runtime", WARNING, "could not link a test library (or nm is missing) to check it")


def _on_path(name: str) -> list[str]:
    """Every `name` on PATH, in order."""
    found = []
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(directory, name)
        if os.access(candidate, os.X_OK) and candidate not in found:
            found.append(candidate)
    return found


def check_nvcc_host_compiler(e: Environment) -> Finding:
    if e.nvcc_host is None or e.nvcc_host_version_text is None:
        return Finding(
            "nvcc host compiler",
            PROBLEM,
            "no host compiler for nvcc found (looked at $CC and gcc on PATH)",
            "install gcc (or set CC to a C compiler nvcc accepts)",
        )
    text = e.nvcc_host_version_text
    version = _compiler_version(text)
    if version is None:
        return Finding("nvcc host compiler", WARNING, f"{e.nvcc_host}: cannot read a version from {text!r}")
    family, major = version
    toolkit = _version_tuple(e.nvcc_version)
    limit = (MAX_CLANG if family == "clang" else MAX_GCC).get(toolkit) if toolkit else None
    if limit is not None and major > limit:
        plus = "clang++" if family == "clang" else "g++"
        return Finding(
            "nvcc host compiler",
            PROBLEM,
            f"{e.nvcc_host} is {family} {major}, newer than nvcc {e.nvcc_version} accepts "
            f"({family} <= {limit})",
            f"install {family} {limit} or older and build with CC=<that {family}> CXX=<its {plus}> (torch "
            "passes CC to nvcc as -ccbin), or use a newer CUDA toolkit",
        )
    return Finding("nvcc host compiler", OK, f"{e.nvcc_host}: {text.strip()}")


def check_ninja(e: Environment) -> Finding:
    if e.ninja is None:
        return Finding(
            "ninja",
            WARNING,
            "ninja not found: torch falls back to its slow, serial distutils build",
            "pip install ninja",
        )
    return Finding("ninja", OK, e.ninja)


def parse_arch_list(text: str) -> list[tuple[tuple[int, int], bool]]:
    """'8.0;9.0+PTX' -> [((8, 0), False), ((9, 0), True)] (suffixes such as 9.0a are kept as 9.0)."""
    entries = []
    for item in re.split(r"[;\s]+", text.strip()):
        match = re.fullmatch(r"(\d+)\.(\d+)[af]?(\+PTX)?", item)
        if match:
            entries.append(((int(match.group(1)), int(match.group(2))), bool(match.group(3))))
    return entries


def check_architectures(e: Environment) -> list[Finding]:
    findings = []
    toolkit = _version_tuple(e.nvcc_version)
    entries = parse_arch_list(e.arch_list) if e.arch_list else []
    if e.arch_list and not entries:
        findings.append(
            Finding(
                "architectures",
                PROBLEM,
                f"TORCH_CUDA_ARCH_LIST={e.arch_list!r} names no architecture",
                "use compute capabilities such as '8.0;9.0+PTX'",
            )
        )
    oldest = MIN_ARCH.get(toolkit[0]) if toolkit else None
    for arch, _ in entries:
        if oldest and arch < oldest:
            findings.append(
                Finding(
                    "architectures",
                    PROBLEM,
                    f"nvcc {e.nvcc_version} cannot build for {arch[0]}.{arch[1]} "
                    f"(the oldest it supports: {oldest[0]}.{oldest[1]})",
                    f"remove {arch[0]}.{arch[1]} from TORCH_CUDA_ARCH_LIST, or use an older CUDA toolkit",
                )
            )
    if not e.gpus:
        target = f"TORCH_CUDA_ARCH_LIST={e.arch_list}" if e.arch_list else "setup.py's default architectures"
        findings.append(Finding("GPUs", OK, f"no GPU is visible; the build targets {target}"))
        return findings
    for name, capability in e.gpus:
        if oldest and tuple(capability) < oldest:
            findings.append(
                Finding(
                    "GPUs",
                    PROBLEM,
                    f"GPU {name} (compute capability {capability[0]}.{capability[1]}) is older than "
                    f"nvcc {e.nvcc_version} supports",
                    "use a CUDA toolkit that still supports it",
                )
            )
        elif entries and not _runs_on(entries, tuple(capability)):
            findings.append(
                Finding(
                    "GPUs",
                    PROBLEM,
                    f"GPU {name} (compute capability {capability[0]}.{capability[1]}) is not covered by "
                    f"TORCH_CUDA_ARCH_LIST={e.arch_list}: the kernels would fail to launch on it",
                    f"add {capability[0]}.{capability[1]} to TORCH_CUDA_ARCH_LIST "
                    "(or unset it to build for the visible GPUs)",
                )
            )
        else:
            findings.append(
                Finding("GPUs", OK, f"GPU {name}, compute capability {capability[0]}.{capability[1]}")
            )
    return findings


def _runs_on(entries: list[tuple[tuple[int, int], bool]], capability: tuple[int, int]) -> bool:
    """Machine code runs on GPUs of the same major version and an equal or newer minor one; PTX is
    compiled by the driver for any newer GPU."""
    for arch, ptx in entries:
        if arch[0] == capability[0] and arch[1] <= capability[1]:
            return True
        if ptx and arch <= capability:
            return True
    return False


def diagnose(e: Environment, want_cuda: bool = True) -> list[Finding]:
    findings = [check_torch(e, want_cuda), check_ninja(e), check_cxx(e)]
    if e.cxx is not None:
        findings.append(check_cxx_runtime(e))
    if want_cuda or e.torch_cuda is not None:
        findings += [check_nvcc(e), check_nvcc_host_compiler(e)]
        findings += check_architectures(e)
    return findings


def report(findings: list[Finding]) -> str:
    width = max(len(f.check) for f in findings)
    lines = []
    for f in findings:
        lines.append(f"[{f.status:^7}] {f.check:<{width}}  {f.message}")
        if f.fix and f.status != OK:
            lines.append(f"{'':>9} {'':<{width}}  fix: {f.fix}")
    return "\n".join(lines)


def problems(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.status == PROBLEM]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    findings = diagnose(gather(), want_cuda="--cpu" not in args)
    print(report(findings))
    return 1 if problems(findings) else 0


if __name__ == "__main__":
    sys.exit(main())
