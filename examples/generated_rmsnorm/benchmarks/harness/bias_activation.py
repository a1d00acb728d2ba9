"""The bias + activation family's benchmark and sanitizer workload, y = activation(x + bias).

benchmarks/bench_<operator>.py calls main("<operator>"), benchmarks/sanitize_<operator>.py
sanitize("<operator>"); benchmarks/harness/runner.py does the work (its docstring says how).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from . import runner

# Large shapes show the bandwidth the kernels reach, also for a few very wide rows and for N not a
# multiple of the vector width (48x100003: both); 4096x1024 and 16x1024 show the per-call overhead.
DEFAULT_SHAPES_CUDA = [
    "4x4194304",
    "32x262144",
    "48x100003",
    "32768x1023",
    "32768x1000",
    "8192x8192",
    "32768x4096",
    "4096x1024",
    "16x1024",
]
DEFAULT_SHAPES_CPU = ["4096x4096", "256x1024", "4x4194304"]

# Shapes for compute-sanitizer: the vectorized path (N a multiple of 16 bytes), each narrower
# vector width, N not a multiple of the vector width (rows processed several at a time, and rows
# left over), the one-element path (N = 1, a misaligned view), rows left after the unrolled loop, a
# backward with many blocks per column strip, and a few very wide rows (the backward's few-rows
# blocks, from kFewRowsMinElements). Folded columns summed by fold_columns_kernel: (3, 70001) and
# (520, 4097) on the 512-thread blocks, (136, 16001) on the few-rows blocks.
SANITIZER_SHAPES = [
    (257, 1024),
    (33, 1000),
    (7, 998),
    (5, 257),
    (9, 1),
    (3000, 64),
    (1, 4096),
    (20, 1023),
    (3, 70001),
    (520, 4097),
    (136, 16001),
    (4, 1 << 21),
]


def make_parameters(spec, cols: int, dtype: torch.dtype, device: torch.device) -> runner.Inputs:
    return {"bias": torch.randn(cols, dtype=dtype, device=device, requires_grad=True)}


def parameter_traffic(spec, pass_name: str) -> int:
    # The forward reads the bias; forward+backward reads it twice and writes grad_bias.
    return 1 if pass_name == "forward" else 3


FAMILY = runner.Family(
    name="bias_activation",
    describe=lambda spec: f"y = {spec.activation}(x + bias)",
    default_shapes_cuda=DEFAULT_SHAPES_CUDA,
    default_shapes_cpu=DEFAULT_SHAPES_CPU,
    make_parameters=make_parameters,
    parameter_traffic=parameter_traffic,
    meta=lambda spec: {"activation": spec.activation},
    sanitizer_shapes=SANITIZER_SHAPES,
    sanitizer_dtypes=(
        (torch.float32, torch.float32),
        (torch.bfloat16, torch.bfloat16),
        (torch.bfloat16, torch.float32),
        (torch.float64, torch.float64),
    ),
)


def main(op_name: str, argv: Sequence[str] | None = None) -> None:
    runner.main(FAMILY, op_name, argv)


def sanitize(op_name: str) -> None:
    runner.sanitize(FAMILY, op_name)
