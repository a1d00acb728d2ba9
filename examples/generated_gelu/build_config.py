"""What the extension is built from and with, for both ways of building it.

setup.py builds it ahead of time (pip install / python setup.py build_ext --inplace); with
GENERATED_GELU_JIT=1, `import generated_gelu` compiles the same sources with the same
flags just in time (torch.utils.cpp_extension.load; ninja rebuilds only what changed).
"""

from __future__ import annotations

import hashlib
import os
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


def torch_release(torch_version: str) -> str:
    """'2.13' for '2.13.0+cu130': the release whose C++ API the library is compiled against."""
    return ".".join(torch_version.split("+")[0].split(".")[:2])


def wheel_version(torch_version: str, cuda_version: str | None) -> str:
    """The package version with the build's torch release and variant as a local label."""
    variant = f"cu{cuda_version.replace('.', '')}" if cuda_version else "cpu"
    return f"{VERSION}+torch{torch_release(torch_version)}.{variant}"


def torch_requirement(torch_version: str) -> str:
    """The torch the built library imports with: its own release, any patch level."""
    return f"torch=={torch_release(torch_version)}.*"


def source_digest() -> str:
    """SHA-256 of every file in csrc/ (names and contents): which kernels a measurement measured."""
    digest = hashlib.sha256()
    for path in sorted(p for p in CSRC.rglob("*") if p.is_file()):
        digest.update(path.relative_to(CSRC).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


# Debug builds: no optimization, debug information, and assertions on. -UNDEBUG comes after the
# -DNDEBUG that Python's own compile flags put first, so assert() and TORCH_INTERNAL_ASSERT_DEBUG_ONLY
# check again.
DEBUG_FLAGS = ["-O0", "-g", "-UNDEBUG"]


def cxx_flags(debug: bool) -> list[str]:
    return (DEBUG_FLAGS if debug else ["-O3"]) + ["-fdiagnostics-color=always"]


def nvcc_flags(debug: bool) -> list[str]:
    return ([*DEBUG_FLAGS, "-G"] if debug else ["-O3", "-lineinfo"]) + ["--threads=4"]


def link_flags(debug: bool) -> list[str]:
    return ["-O0", "-g"] if debug else []
