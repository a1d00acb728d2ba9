"""Just-in-time build of csrc/ for development: the sources and flags of setup.py, compiled by
torch.utils.cpp_extension.load into build/jit/ (ninja recompiles only the files that changed) and
loaded into this process. Used by the package's __init__ when <PACKAGE>_JIT=1; needs a source
checkout (the package in src/, csrc/ and build_config.py in the project folder above it).
"""

from __future__ import annotations

import functools
import importlib.util
import os
from pathlib import Path

import torch
from torch.utils import cpp_extension

_PROJECT = Path(__file__).resolve().parents[2]  # <project>/src/<package>/_jit.py


@functools.cache  # one load for cpu_isa and load_sources; it reads the environment when called
def _build_config():
    spec = importlib.util.spec_from_file_location("build_config", _PROJECT / "build_config.py")
    if spec is None or not (_PROJECT / "csrc").is_dir():
        raise ImportError(
            f"a just-in-time build needs the project's sources, but {_PROJECT / 'csrc'} is missing"
        )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cpu_isa() -> str:
    """The CPU loops' instruction set (build_config.cpu_isa: CPU_ISA, or this machine's)."""
    return _build_config().cpu_isa()


def load_sources(verbose: bool = False) -> None:
    """Compile (if changed) and load the extension's library, which registers the operators."""
    config = _build_config()
    cuda = torch.version.cuda is not None and cpp_extension.CUDA_HOME is not None
    cuda = cuda and config.env_flag("USE_CUDA") is not False
    debug = bool(config.env_flag("DEBUG"))
    build_directory = _PROJECT / "build" / "jit"
    build_directory.mkdir(parents=True, exist_ok=True)
    if cuda and not os.environ.get("TORCH_CUDA_ARCH_LIST") and not torch.cuda.is_available():
        os.environ["TORCH_CUDA_ARCH_LIST"] = config.DEFAULT_CUDA_ARCH_LIST
    cpp_extension.load(
        name=f"{config.PACKAGE}_jit",
        sources=[str(path) for path in config.sources(cuda)],
        extra_include_paths=[str(config.CSRC)],
        extra_cflags=config.cxx_flags(debug),
        extra_cuda_cflags=config.nvcc_flags(debug) if cuda else None,
        extra_ldflags=config.link_flags(debug),
        build_directory=str(build_directory),
        is_python_module=False,
        verbose=verbose,
    )
