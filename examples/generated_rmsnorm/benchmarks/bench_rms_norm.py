"""Benchmark of the operator rms_norm.

The row normalization family's benchmark (benchmarks/harness/row_norm.py, run by runner.py; --help says
more): against PyTorch eager, torch.compile, Liger-Kernel where it is installed, and a device-to-device copy.
"""

from harness.row_norm import main

if __name__ == "__main__":
    main("rms_norm")
