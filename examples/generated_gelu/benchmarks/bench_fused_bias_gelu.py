"""Benchmark of the operator fused_bias_gelu.

The bias + activation family's benchmark (benchmarks/harness/bias_activation.py, run by runner.py; --help says
more): against PyTorch eager, torch.compile and a device-to-device copy.
"""

from harness.bias_activation import main

if __name__ == "__main__":
    main("fused_bias_gelu")
