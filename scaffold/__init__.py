"""Tools around the Copier template for PyTorch C++/CUDA custom operators (see README.md)."""

__version__ = "0.1.0"
