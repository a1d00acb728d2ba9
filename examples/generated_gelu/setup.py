"""Builds generated_gelu._C from every source in csrc/ (so a new operator needs no edit here).

Environment variables:
    USE_CUDA=0               build the CPU kernels only, even where CUDA is available.
    FORCE_CUDA=1             build the CUDA kernels or fail with the reason (use it on a build
                             machine without a GPU, where silently building CPU-only is wrong).
    TORCH_CUDA_ARCH_LIST     GPU architectures, e.g. "8.0;9.0+PTX". Unset: the visible GPUs'
                             architectures, or "8.0;9.0+PTX" when no GPU is visible.
    DEBUG=1                  -O0 -g (and -G for device code) instead of optimized code.
    MAX_JOBS                 parallel compile jobs for ninja.

Metadata lives in pyproject.toml; this file only describes the extension module.
"""

import glob
import os

import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension

PACKAGE = "generated_gelu"
DEFAULT_CUDA_ARCH_LIST = "8.0;9.0+PTX"


def env_flag(name: str) -> bool | None:
    value = os.environ.get(name)
    return None if value is None else value.strip().lower() in ("1", "true", "yes", "on")


def build_with_cuda() -> bool:
    use_cuda, force_cuda = env_flag("USE_CUDA"), env_flag("FORCE_CUDA")
    if use_cuda is False:
        if force_cuda:
            raise SystemExit("USE_CUDA=0 and FORCE_CUDA=1 contradict each other; unset one of them.")
        return False
    missing = []
    if torch.version.cuda is None:
        missing.append(f"torch {torch.__version__} is a CPU-only build (torch.version.cuda is None)")
    if CUDA_HOME is None:
        missing.append("no CUDA toolkit was found (set CUDA_HOME or put nvcc on PATH)")
    if missing and (force_cuda or use_cuda):
        raise SystemExit("CUDA was requested, but " + "; and ".join(missing) + ".")
    return not missing


def extension():
    debug = bool(env_flag("DEBUG"))
    cuda = build_with_cuda()
    sources = sorted(glob.glob("csrc/*.cpp"))
    cxx = ["-O0", "-g"] if debug else ["-O3"]
    cxx += ["-fdiagnostics-color=always"]
    if torch.__version__ < "2.7":  # newer torch defines Py_LIMITED_API itself for py_limited_api=True
        cxx.append("-DPy_LIMITED_API=0x030A0000")
    extra_compile_args = {"cxx": cxx}
    extra_link_args = ["-O0", "-g"] if debug else []
    if not cuda:
        print(f"{PACKAGE}: building the CPU kernels only")
        return CppExtension(
            f"{PACKAGE}._C",
            sources,
            include_dirs=[os.path.abspath("csrc")],
            extra_compile_args=extra_compile_args,
            extra_link_args=extra_link_args,
            py_limited_api=True,
        )
    if not os.environ.get("TORCH_CUDA_ARCH_LIST") and not torch.cuda.is_available():
        # torch picks the visible GPUs' architectures; with none visible it would fail, so use ours.
        os.environ["TORCH_CUDA_ARCH_LIST"] = DEFAULT_CUDA_ARCH_LIST
    arch_list = os.environ.get("TORCH_CUDA_ARCH_LIST", "those of the visible GPUs")
    print(f"{PACKAGE}: building the CPU and CUDA kernels for TORCH_CUDA_ARCH_LIST={arch_list}")
    sources += sorted(glob.glob("csrc/*.cu"))
    extra_compile_args["nvcc"] = (["-O0", "-g", "-G"] if debug else ["-O3", "-lineinfo"]) + ["--threads=4"]
    return CUDAExtension(
        f"{PACKAGE}._C",
        sources,
        include_dirs=[os.path.abspath("csrc")],
        extra_compile_args=extra_compile_args,
        extra_link_args=extra_link_args,
        py_limited_api=True,
    )


setup(
    ext_modules=[extension()],
    cmdclass={"build_ext": BuildExtension},
    options={"bdist_wheel": {"py_limited_api": "cp310"}},
)
