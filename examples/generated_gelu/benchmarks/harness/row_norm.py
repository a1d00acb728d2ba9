"""The row normalization family's benchmark and sanitizer workload: RMSNorm and LayerNorm of each row.

benchmarks/bench_<operator>.py calls main("<operator>"), benchmarks/sanitize_<operator>.py
sanitize("<operator>"); benchmarks/harness/runner.py does the work (its docstring says how).

Besides eager (F.rms_norm / F.layer_norm) and torch.compile, the benchmark compares with
Liger-Kernel's Triton kernels where liger-kernel is installed (``pip install liger-kernel``; CUDA
only; skipped cleanly where it is absent). Liger's RMSNorm runs with in_place=False, so that its
backward leaves grad_out as it found it (the benchmark reuses grad_out), and with the casting mode
that matches the operator ("llama": x_hat * weight; "gemma": x_hat * (1 + weight)); an RMSNorm with a
residual add is compared with Liger's fused add + RMSNorm (LayerNorm with one has no Liger peer).
"""

from __future__ import annotations

import importlib.metadata
import inspect
import sys
from collections.abc import Sequence

import torch

from . import runner

# The shapes of LLM hidden sizes: many rows of 4096 to 16384 and a few rows of 65536 show the
# bandwidth reached; 8192x4095 (N odd: rows read from their first vector boundary, their edges an
# element at a time) shows the path for N not a multiple of the vector width; 4096x1024 and 16x4096
# the per-call overhead.
DEFAULT_SHAPES_CUDA = [
    "32768x4096",
    "8192x8192",
    "4096x16384",
    "1024x65536",
    "8192x4095",
    "4096x1024",
    "16x4096",
]
DEFAULT_SHAPES_CPU = ["4096x4096", "256x1024", "16x65536"]

# Shapes for compute-sanitizer: rows narrower than a warp (several rows a block, N = 1 and odd N),
# a row per thread group with one, four and eight vectors a thread, rows wider than the registers
# hold (read in several passes; the backward's workspace path), rows left over at the end of the
# backward's grid, and short rows enough for the forward to give each a warp or 16 threads (1200 x
# 1024: eight vectors a thread of a warp in float32, on GPUs of up to 150 multiprocessors); the
# residual-add RMSNorm's 16-bit rows at two vectors a thread (200 x 4096). N not a multiple of the
# vector width (rows read from their first vector boundary, with edges): in clusters (3 x 40003), a
# row a block, several rows a block, and rows wider than the registers hold.
SANITIZER_SHAPES = [
    (9, 1),
    (33, 7),
    (130, 24),
    (257, 1000),
    (64, 4096),
    (5, 8192),
    (3, 40003),
    (2, 131072),
    (1000, 512),
    (1536, 512),
    (1200, 1024),
    (200, 4096),
    (300, 1001),
    (1100, 300),
    (2, 300001),
]


def sanitizer_environments(spec) -> list[tuple[dict[str, str], list[tuple[int, int]]]]:
    """Further shapes, each set under the test settings that the kernels read from the environment
    (their names from the package's family module, spec's, as csrc/row_norm/cuda.cuh reads them)."""
    family = sys.modules[type(spec).__module__]
    return [
        # With a block's shared memory capped to that of GPUs with 99 KiB a block, rows whose
        # backward blocks then read their rows without staging them: at 5 x 8192 in float32 (512
        # threads) and float64 (a cluster of two blocks on sm_90 and newer), at 33 x 16384 in the
        # 16-bit types (512 threads) and in float32 and float64 (clusters); the 16-bit types at
        # 5 x 8192 (256 threads) are still staged.
        ({family.SHARED_MEMORY_LIMIT_VARIABLE: str(99 * 1024)}, [(5, 8192), (33, 16384)]),
        # With the backward capped to 3 row groups, so that they walk several rows: in the
        # workspace, whose rows start at different offsets from a vector boundary (9 x 300001), and
        # in registers, four rows a block in the 16-bit types (40 x 201); at 9 x 16383 the 16-bit
        # types' grid is rounded up to 8 blocks of a row each (one walks two rows), float32 and
        # float64 take clusters.
        ({family.BACKWARD_GROUPS_VARIABLE: "3"}, [(9, 300001), (40, 201), (9, 16383)]),
        # With the backward capped to 2 row groups at 24 x 65536: in the 16-bit types two clusters of
        # four blocks, each walking 12 rows staged in shared memory, so that the turns of the
        # exchange of a row's sums (ClusterExchange) come round several times; float32 in clusters
        # of eight; float64 in the workspace.
        ({family.BACKWARD_GROUPS_VARIABLE: "2"}, [(24, 65536)]),
        # With the backward capped to 8 row groups, rows staged at four vectors a thread: without the
        # workspace (kKeep) where the norm and dtype allow it, the grid's sums written over kept rows
        # of grad_x between two grid barriers: groups of 37 or 38 rows (300 x 4096), and of 16 rows,
        # the fewest for the two kept rows of the 16-bit RMSNorms and of the float32 LayerNorms
        # (128 x 8192: four vectors a thread on up to 512 threads; float64 rows of 8192 take a
        # cluster or several passes); then the same shapes with the workspace kept (its path at
        # these shapes).
        ({family.BACKWARD_GROUPS_VARIABLE: "8"}, [(300, 4096), (128, 8192)]),
        ({family.BACKWARD_GROUPS_VARIABLE: "8", family.WORKSPACE_VARIABLE: "1"}, [(300, 4096), (128, 8192)]),
    ]


def far_first_rows(spec, x: torch.Tensor) -> None:
    """Every third row's first element far from the rest (an LLM's "massive activations" in the first
    channel): LayerNorm's CUDA backward sums such a row a second time, about its mean (far_row_sums in
    csrc/row_norm/cuda.cuh), which random rows seldom make it do. The other rows stay random (but in
    the view shifted by an element, whose rows end where the unshifted view's next row starts), so
    that warps and clusters hold rows of both kinds."""
    x[::3, 0] = 1000


def make_parameters(spec, cols: int, dtype: torch.dtype, device: torch.device) -> runner.Inputs:
    # Near the identity (or, zero-centred, near 0), as a trained norm's weight is, and never zeros.
    center = 0.0 if spec.zero_centered_weight else 1.0
    parameters = {"weight": center + 0.1 * torch.randn(cols, dtype=torch.float32, device=device)}
    if spec.has_bias:
        parameters["bias"] = 0.1 * torch.randn(cols, dtype=torch.float32, device=device)
    return {name: p.to(dtype).requires_grad_() for name, p in parameters.items()}


def activations(spec) -> tuple[str, ...]:
    return ("x", "residual") if spec.residual_add else ("x",)


def activation_traffic(spec, pass_name: str) -> int:
    # The forward reads x and writes y; with a residual add it also reads residual and writes
    # residual_out. The backward reads grad_out (and grad_residual_out) and the tensor the forward
    # normalized (x, or residual_out), and writes one gradient (x's, which is also residual's).
    outputs = 2 if spec.residual_add else 1
    forward = len(activations(spec)) + outputs
    return forward if pass_name == "forward" else forward + outputs + 2


def parameter_traffic(spec, pass_name: str) -> int:
    # The forward reads each parameter; the backward reads the weight again (not the bias) and writes
    # each parameter's gradient.
    if pass_name == "forward":
        return 2 if spec.has_bias else 1
    return 5 if spec.has_bias else 3


def liger(spec, device: torch.device) -> dict[str, runner.Impl]:
    """Liger-Kernel's RMSNorm or LayerNorm on the same inputs, where it is installed (CUDA only)."""
    if device.type != "cuda":
        return {}
    eps = spec.default_eps
    if spec.has_bias and spec.residual_add:
        return {}
    try:
        if spec.has_bias:
            from liger_kernel.ops.layer_norm import LigerLayerNormFunction

            return {"liger": lambda inputs: LigerLayerNormFunction.apply(*inputs.values(), eps)}
        if spec.residual_add:
            from liger_kernel.ops.fused_add_rms_norm import LigerFusedAddRMSNormFunction as Function
        else:
            from liger_kernel.ops.rms_norm import LigerRMSNormFunction as Function
    except ImportError as error:
        if liger_version() is not None:  # installed, but it does not load (e.g. no Triton): say so
            print(
                f"warning: liger-kernel {liger_version()} is installed but fails to import: {error}",
                file=sys.stderr,
            )
        return {}
    offset, casting_mode = (1.0, "gemma") if spec.zero_centered_weight else (0.0, "llama")
    return {"liger": lambda inputs: Function.apply(*inputs.values(), eps, offset, casting_mode, False)}


def reference_source(spec) -> str | None:
    """The reference's source (what the eager and torch.compile columns time), for the record."""
    try:
        return inspect.getsource(spec.reference)
    except (OSError, TypeError):
        return None


def liger_version() -> str | None:
    try:
        return importlib.metadata.version("liger-kernel")
    except importlib.metadata.PackageNotFoundError:
        return None


FAMILY = runner.Family(
    name="row_norm",
    describe=lambda spec: spec.formula,
    default_shapes_cuda=DEFAULT_SHAPES_CUDA,
    default_shapes_cpu=DEFAULT_SHAPES_CPU,
    make_parameters=make_parameters,
    parameter_traffic=parameter_traffic,
    activations=activations,
    outputs=lambda spec: 2 if spec.residual_add else 1,
    activation_traffic=activation_traffic,
    extra_arguments=lambda spec: (spec.default_eps,),
    peers=liger,
    meta=lambda spec: {
        "norm": spec.norm,
        "zero_centered_weight": spec.zero_centered_weight,
        "residual_add": spec.residual_add,
        "eps": spec.default_eps,
        "liger_version": liger_version(),
        "reference": reference_source(spec),
    },
    sanitizer_shapes=SANITIZER_SHAPES,
    sanitizer_rows=far_first_rows,
    sanitizer_environments=sanitizer_environments,
    sanitizer_dtypes=(
        (torch.float32, torch.float32),
        (torch.bfloat16, torch.bfloat16),
        (torch.bfloat16, torch.float32),
        (torch.float16, torch.float16),
        (torch.float64, torch.float64),
    ),
)


def main(op_name: str, argv: Sequence[str] | None = None) -> None:
    runner.main(FAMILY, op_name, argv)


def sanitize(op_name: str) -> None:
    runner.sanitize(FAMILY, op_name)
