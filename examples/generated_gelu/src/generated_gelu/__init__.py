"""Generated GELU: Fused bias + gelu_tanh PyTorch operator with CPU and CUDA kernels.

Importing the package loads the compiled library, which registers the operators with PyTorch:
``generated_gelu._C`` (``_C_avx512`` or ``_C_avx2`` where its CPU loops are compiled for
AVX512 or AVX2: ``CPU_LOOPS`` says which), or with
GENERATED_GELU_JIT=1 the sources of csrc/ compiled just in time. It then imports
each operator's module in ``generated_gelu.ops``, which adds its fake (torch.compile)
registrations and its Python API, re-exported here.
"""

import importlib
import os
from pathlib import Path

import torch  # first: the library links against torch's, which this import loads

_JIT = os.environ.get("GENERATED_GELU_JIT") == "1"
if _JIT:
    # Development: compile csrc/ just in time (only what changed) instead of importing the build.
    from ._jit import cpu_isa, load_sources

    CPU_LOOPS = cpu_isa()  # the instruction set the CPU loops are compiled for (build_config.py)
else:
    _here = Path(__file__).parent
    _libraries = {path.name.split(".")[0] for path in _here.glob("_C*.so")}
    _libraries = sorted(_libraries & {"_C", "_C_avx2", "_C_avx512"})  # build_config.MODULE_NAMES
    if len(_libraries) > 1:
        raise ImportError(
            f"{__name__} holds libraries built for several instruction sets ({', '.join(_libraries)} in "
            f"{_here}), left by builds of different CPU_ISA: rebuild it (`pip install --no-build-isolation "
            "-e .`), which keeps one"
        )
    _library = _libraries[0] if _libraries else "_C"
    # The set the CPU loops were compiled for, from the library's name (build_config.py).
    CPU_LOOPS = "portable" if _library == "_C" else _library.removeprefix("_C_")
if CPU_LOOPS != "portable":
    # The CPU features the loops' flags need (build_config.py): torch.cpu.get_capabilities lists them
    # in newer torch; older torch has one check a set (its AVX512 check, AVX512F only in some releases).
    _needs = {"avx512": ("avx512_f", "avx512_bw", "avx512_vl", "avx512_dq", "avx2", "fma3", "f16c")}
    _needs["avx2"] = ("avx2", "fma3", "f16c")
    if hasattr(torch.cpu, "get_capabilities"):
        _has = all(torch.cpu.get_capabilities().get(feature, False) for feature in _needs[CPU_LOOPS])
    else:
        _has = getattr(torch.cpu, f"_is_{CPU_LOOPS}_supported")()
    if not _has:
        raise ImportError(
            f"{__name__}'s CPU loops are built for {CPU_LOOPS.upper()}, which this CPU lacks: build them for "
            "this machine (CPU_ISA unset) or for a narrower instruction set, CPU_ISA=avx2 (x86-64 CPUs since "
            "about 2015) or CPU_ISA=portable (any CPU), with `pip install --no-build-isolation .` (or, with "
            "GENERATED_GELU_JIT=1, by importing it again)"
        )
if _JIT:
    load_sources()
else:
    try:
        # Importing the module loads the library, which registers the operators.
        importlib.import_module(f".{_library}", __name__)
    except ImportError as error:
        if any(_here.glob("_C*")):
            raise ImportError(
                f"{error}\nThe compiled library of {__name__} was built against another torch (or Python "
                f"ABI) than the one importing it (torch {torch.__version__}): rebuild it with this torch, "
                "`pip install --no-build-isolation -e .` in the project folder"
            ) from error
        raise ImportError(
            f"{__name__}._C, the compiled library, is missing from {_here}: build it in the project "
            "folder with `pip install --no-build-isolation -e .` (or a regular install without -e), or set "
            "GENERATED_GELU_JIT=1 to compile it just in time on import"
        ) from error
from . import ops  # noqa: E402 (after the library, which registers the operators ops wraps)

globals().update(ops.public_api)
__all__ = sorted(ops.public_api)
