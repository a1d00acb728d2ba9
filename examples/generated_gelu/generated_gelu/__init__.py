"""Generated GELU: Fused bias + gelu_tanh PyTorch operator with CPU and CUDA kernels.

Importing the package loads the compiled library (``generated_gelu._C``), which registers the
operators with PyTorch, then imports each operator's module in ``generated_gelu.ops``, which adds
its fake (torch.compile) and autograd registrations and its Python API, re-exported here.
"""

import torch  # noqa: F401  (first: _C links against torch's libraries, which this import loads)

from . import _C, ops  # noqa: F401  (importing _C loads the library, which registers the operators)

globals().update(ops.public_api)
__all__ = sorted(ops.public_api)
