"""A small workload for compute-sanitizer: every code path of the CUDA kernels, once.

    compute-sanitizer --tool memcheck python benchmarks/sanitize_fused_bias_gelu.py
    compute-sanitizer --tool racecheck python benchmarks/sanitize_fused_bias_gelu.py

Shapes cover the vectorized path (N a multiple of 16 bytes), each narrower vector width, the
scalar path (odd N, N = 1), a misaligned view, rows left over after the unrolled loop, and a
backward with many blocks per column strip (the grad_bias finish). Run it with
PYTORCH_NO_CUDA_MEMORY_CACHING=1 so that an out-of-bounds access is not hidden inside a larger
cached block.
"""

import torch

import generated_gelu

SHAPES = [(257, 1024), (33, 1000), (7, 998), (5, 257), (9, 1), (3000, 64), (1, 4096)]


def main() -> None:
    for dtype in (torch.float32, torch.bfloat16, torch.float64):
        for rows, cols in SHAPES:
            x = torch.randn(rows * cols + 1, device="cuda", dtype=dtype)
            for view in (x[:-1].view(rows, cols), x[1:].view(rows, cols)):
                bias = torch.randn(cols, device="cuda", dtype=dtype, requires_grad=True)
                leaf = view.detach().requires_grad_()
                y = generated_gelu.fused_bias_gelu(leaf, bias)
                torch.autograd.grad(y, (leaf, bias), torch.randn_like(y))
    torch.cuda.synchronize()
    print("sanitizer case: done")


if __name__ == "__main__":
    main()
