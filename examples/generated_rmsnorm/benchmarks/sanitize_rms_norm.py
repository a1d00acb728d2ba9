"""compute-sanitizer's workload for the operator rms_norm.

Runs every code path of the row normalization family's CUDA kernels once
(benchmarks/harness/row_norm.py):

    compute-sanitizer --tool memcheck python benchmarks/sanitize_rms_norm.py
"""

from harness.row_norm import sanitize

if __name__ == "__main__":
    sanitize("rms_norm")
