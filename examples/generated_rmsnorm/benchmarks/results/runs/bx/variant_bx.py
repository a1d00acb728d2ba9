# ruff: noqa: E501
"""Lab BX's variants (issue 11; session 58, 2026-12-01) of a rendered norm project (csrc/row_norm/cuda.cuh
of main, 7bfc641): the forward kernel of registers and clusters (forward_kernel_for, launched by
forward_cuda's launch_rows) asks the driver for a shared-memory carveout, once for each build of it
and each process, before its first launch (cudaFuncAttributePreferredSharedMemoryCarveout: a hint,
in percent of the most shared memory an SM has; the kernel takes 512 bytes of static shared memory).
Labs BV and BW (runs/bv/, runs/bw/): the residual-add LayerNorm's float32 forward at 4096 x 16384
took 322 to 324 us in every process without torch.compile, wherever its tensors lay, with the same
launch (grid 4096, 512 threads, 64 registers); 289.6 to 290.1 us in a benchmark whose torch.compile
peer ran before it (call BN's table: 288.5). Without a preference the driver may keep an SM's
carveout as the kernel before left it, so that the L1 cache this kernel has (where every block
reads the 128 KiB of weight and bias) would depend on what ran before.
`l1`: cudaSharedmemCarveoutMaxL1 (0: the least shared memory that its blocks need, the rest L1);
`shared`: cudaSharedmemCarveoutMaxShared (100).
The first call's builds of both failed: host code's lambda took no capture, and g++ (nvcc's host
compiler) refused kVec unreferenced there ("'kVec' is not captured"); from the second call on it takes
[&].
    python3 variant_bx.py PROJECT l1|shared"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import main_with  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"
LAUNCH = """          const int64_t blocks = (rows + g.rows_per_block - 1) / g.rows_per_block * cluster;
          launch(forward_kernel_for<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted>(), blocks,
"""


def carveout(value: str) -> list[tuple[str, str]]:
    head, launch = LAUNCH.split("\n", 1)
    return [
        (
            LAUNCH,
            head
            + f"""
          static const bool carveout_asked = [&] {{  // lab BX
            C10_CUDA_CHECK(cudaFuncSetAttribute(
                forward_kernel_for<Norm, scalar_t, param_t, kVec, kItems, kCached, kShifted>(),
                cudaFuncAttributePreferredSharedMemoryCarveout, {value}));
            return true;
          }}();
          (void)carveout_asked;
"""
            + launch,
        )
    ]


EDITS = {"l1": carveout("cudaSharedmemCarveoutMaxL1"), "shared": carveout("cudaSharedmemCarveoutMaxShared")}


if __name__ == "__main__":
    main_with(sys.argv, EDITS, KERNELS)
