"""Generated RMSNorm: Fused RMSNorm PyTorch operator with CPU and CUDA kernels.

Importing the package loads the compiled library, which registers the operators with PyTorch:
``generated_rmsnorm._C`` (``_C_avx2`` where its CPU loops are compiled for AVX2), or with
GENERATED_RMSNORM_JIT=1 the sources of csrc/ compiled just in time. It then imports
each operator's module in ``generated_rmsnorm.ops``, which adds its fake (torch.compile)
registrations and its Python API, re-exported here.
"""

import importlib
import os
from pathlib import Path

import torch  # first: the library links against torch's, which this import loads

if os.environ.get("GENERATED_RMSNORM_JIT") == "1":
    # Development: compile csrc/ just in time (only what changed) instead of importing the build.
    from ._jit import load_sources

    load_sources()
else:
    _here = Path(__file__).parent
    _avx2 = any(_here.glob("_C_avx2*"))  # the CPU loops need AVX2 (build_config.py)
    if _avx2 and not torch.cpu._is_avx2_supported():
        raise ImportError(
            f"{__name__} was built with its CPU loops for AVX2, which this CPU lacks: rebuild it here, "
            "or with PORTABLE_CPU=1 for any x86-64 CPU (`PORTABLE_CPU=1 pip install --no-build-isolation .`)"
        )
    try:
        # Importing the module loads the library, which registers the operators.
        importlib.import_module(f".{'_C_avx2' if _avx2 else '_C'}", __name__)
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
            "GENERATED_RMSNORM_JIT=1 to compile it just in time on import"
        ) from error
from . import ops

globals().update(ops.public_api)
__all__ = sorted(ops.public_api)
