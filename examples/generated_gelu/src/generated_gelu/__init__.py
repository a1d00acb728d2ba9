"""Generated GELU: Fused bias + gelu_tanh PyTorch operator with CPU and CUDA kernels.

Importing the package loads the compiled library, which registers the operators with PyTorch:
``generated_gelu._C``, or with GENERATED_GELU_JIT=1 the sources of csrc/ compiled
just in time. It then imports each operator's module in ``generated_gelu.ops``, which adds its
fake (torch.compile) registrations and its Python API, re-exported here.
"""

import os
from pathlib import Path

import torch  # noqa: F401  (first: the library links against torch's, which this import loads)

if os.environ.get("GENERATED_GELU_JIT") == "1":
    # Development: compile csrc/ just in time (only what changed) instead of importing the build.
    from ._jit import load_sources

    load_sources()
else:
    try:
        from . import _C  # noqa: F401  (importing _C loads the library, which registers the operators)
    except ImportError as error:
        if any(Path(__file__).parent.glob("_C*")):
            raise ImportError(
                f"{error}\n{__name__}._C was built against another torch (or Python ABI) than the one "
                f"importing it (torch {torch.__version__}): rebuild it with this torch, "
                "`pip install --no-build-isolation -e .` in the project folder"
            ) from error
        raise ImportError(
            f"{__name__}._C, the compiled library, is missing from {Path(__file__).parent}: build it "
            "in the project folder with `pip install --no-build-isolation -e .` (or a regular install "
            "without -e), or set GENERATED_GELU_JIT=1 to compile it just in time on import"
        ) from error
from . import ops

globals().update(ops.public_api)
__all__ = sorted(ops.public_api)
