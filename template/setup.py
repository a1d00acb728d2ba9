"""Builds the extension module <package>._C (or _C_avx512, _C_avx2: build_config.py says when) from
every source in csrc/ (build_config.py says which sources and flags; a new operator needs no edit here).

Environment variables:
    USE_CUDA=0               build the CPU kernels only, even where CUDA is available.
    FORCE_CUDA=1             build the CUDA kernels or fail with the reason (use it on a build
                             machine without a GPU, where silently building CPU-only is wrong).
    TORCH_CUDA_ARCH_LIST     GPU architectures, e.g. "8.0;9.0+PTX". Unset: the visible GPUs'
                             architectures, or build_config.DEFAULT_CUDA_ARCH_LIST when none is visible.
    DEBUG=1                  -O0 -g (and -G for device code) instead of optimized code.
    MAX_JOBS                 parallel compile jobs for ninja.
    SKIP_DOCTOR=1            skip the preflight checks (doctor.py) before the build.
    CPU_ISA=avx512|avx2|portable  the CPU loops' instruction set (default: the widest this machine runs;
                             build_config.py). PORTABLE_CPU=1 is CPU_ISA=portable.
    CC, CXX                  the compilers (doctor.py says which the build uses and checks them).

Metadata lives in pyproject.toml; this file describes the extension module and sets what depends on
the build: the version's local label and the torch requirement (build_config.py says how).
"""

import os
import sys
from pathlib import Path

import torch
from setuptools import setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # pip's build backend does not
import build_config  # noqa: E402
import doctor  # noqa: E402


def build_with_cuda() -> bool:
    use_cuda, force_cuda = build_config.env_flag("USE_CUDA"), build_config.env_flag("FORCE_CUDA")
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


def preflight(cuda: bool) -> None:
    """Stop before a build that would fail, or build a library that crashes, saying why and how to
    fix it (doctor.py)."""
    if build_config.env_flag("SKIP_DOCTOR"):
        return
    findings = doctor.diagnose(doctor.gather(), want_cuda=cuda)
    print(doctor.report(findings))
    if doctor.problems(findings):
        raise SystemExit("The build would fail: see the problems above (SKIP_DOCTOR=1 to build anyway).")


def extension():
    """The extension module <package>._C (or _C_avx512, _C_avx2), and whether it has the CUDA kernels."""
    debug = bool(build_config.env_flag("DEBUG"))
    cuda = build_with_cuda()
    cxx = build_config.cxx_flags(debug)
    if torch.__version__ < "2.7":  # newer torch defines Py_LIMITED_API itself for py_limited_api=True
        cxx.append("-DPy_LIMITED_API=0x030A0000")
    options = dict(
        include_dirs=[str(build_config.CSRC)],
        extra_compile_args={"cxx": cxx},
        extra_link_args=build_config.link_flags(debug),
        py_limited_api=True,
    )
    # setuptools wants source paths relative to this file.
    sources = [str(path.relative_to(build_config.ROOT)) for path in build_config.sources(cuda)]
    name = f"{build_config.PACKAGE}.{build_config.module_name()}"
    if not cuda:
        preflight(cuda=False)
        print(f"{build_config.PACKAGE}: building the CPU kernels only")
        return CppExtension(name, sources, **options), False
    if not os.environ.get("TORCH_CUDA_ARCH_LIST") and not torch.cuda.is_available():
        # torch picks the visible GPUs' architectures; with none visible it would fail, so use ours.
        os.environ["TORCH_CUDA_ARCH_LIST"] = build_config.DEFAULT_CUDA_ARCH_LIST
    preflight(cuda=True)
    arch_list = os.environ.get("TORCH_CUDA_ARCH_LIST", "those of the visible GPUs")
    print(f"{build_config.PACKAGE}: building the CPU and CUDA kernels for TORCH_CUDA_ARCH_LIST={arch_list}")
    options["extra_compile_args"]["nvcc"] = build_config.nvcc_flags(debug)
    return CUDAExtension(name, sources, **options), True


class BuildOneLibrary(BuildExtension):
    """torch's BuildExtension, which first removes the libraries of the other instruction sets (_C,
    _C_avx2, _C_avx512: build_config.py) that earlier builds left where this one's goes: in the build
    folder, which a wheel takes whole, and, building in place (or editable), in src/<package>/, from
    which the package would import the wrong one."""

    def run(self):
        other = set(build_config.MODULE_NAMES) - {build_config.module_name()}
        folders = [Path(self.build_lib) / build_config.PACKAGE]
        if self.inplace:
            folders.append(build_config.ROOT / "src" / build_config.PACKAGE)
        for folder in folders:
            for stale in folder.glob("_C*.so"):
                if stale.name.split(".")[0] in other:
                    stale.unlink()
        super().run()


try:
    module, cuda = extension()
    cuda_version = torch.version.cuda if cuda else None
    version = build_config.wheel_version(torch.__version__, cuda_version, build_config.cpu_isa())
except ValueError as error:  # build_config's refusals (CPU_ISA)
    raise SystemExit(str(error)) from None
setup(
    version=version,
    install_requires=[build_config.torch_requirement(torch.__version__)],
    ext_modules=[module],
    cmdclass={"build_ext": BuildOneLibrary},
    options={"bdist_wheel": {"py_limited_api": "cp310"}},
)
