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


def source_digest() -> str:
    """SHA-256 of every file in csrc/ (names and contents): which kernels a measurement measured."""
    digest = hashlib.sha256()
    for path in sorted(p for p in CSRC.rglob("*") if p.is_file()):
        digest.update(path.relative_to(CSRC).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def cxx_flags(debug: bool) -> list[str]:
    return (["-O0", "-g"] if debug else ["-O3"]) + ["-fdiagnostics-color=always"]


def nvcc_flags(debug: bool) -> list[str]:
    return (["-O0", "-g", "-G"] if debug else ["-O3", "-lineinfo"]) + ["--threads=4"]


def link_flags(debug: bool) -> list[str]:
    return ["-O0", "-g"] if debug else []
