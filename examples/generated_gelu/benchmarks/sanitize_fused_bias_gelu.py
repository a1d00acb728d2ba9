"""compute-sanitizer's workload for the operator fused_bias_gelu.

Runs every code path of the bias + activation family's CUDA kernels once
(benchmarks/harness/bias_activation.py):

    compute-sanitizer --tool memcheck python benchmarks/sanitize_fused_bias_gelu.py
"""

from harness.bias_activation import sanitize

if __name__ == "__main__":
    sanitize("fused_bias_gelu")
