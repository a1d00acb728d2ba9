"""One forward case for lab BB0's Nsight Compute runs: IMPL (ours: PROJECT's operator; liger:
Liger-Kernel's RMSNorm, LayerNorm or fused add + RMSNorm, called as the benchmark calls them;
compile: torch.compile of the operator's reference, F.rms_norm or F.layer_norm after x + residual
where there is one) on inputs drawn as the benchmark draws them (x and residual standard normal, the
weight 1 + 0.1 N(0, 1) and the bias 0.1 N(0, 1), in x's dtype): three calls, synchronized
(torch.compile compiles in the first), then three more between cudaProfilerStart and
cudaProfilerStop, which ncu --profile-from-start off profiles (three samples of each kernel).
Usage: python3 ncu_forward.py PACKAGE OP IMPL DTYPE ROWS COLS"""

import importlib
import sys

import torch

package, op, impl = sys.argv[1:4]
dtype = getattr(torch, sys.argv[4])
rows, cols = map(int, sys.argv[5:7])
residual_add, layer = op.startswith("fused_add"), "layer" in op
eps = 1e-5 if layer else 1e-6
torch.manual_seed(0)
activations = [torch.randn(rows, cols, device="cuda", dtype=dtype)]
if residual_add:
    activations.append(torch.randn(rows, cols, device="cuda", dtype=dtype))
params = [(1 + 0.1 * torch.randn(cols, device="cuda")).to(dtype)]
if layer:
    params.append((0.1 * torch.randn(cols, device="cuda")).to(dtype))
inputs = [*activations, *params]
if impl == "liger":  # (our package is not imported: its build plays no part)
    if layer:
        from liger_kernel.ops.layer_norm import LigerLayerNormFunction

        def call():
            return LigerLayerNormFunction.apply(*inputs, eps)
    else:
        if residual_add:
            from liger_kernel.ops.fused_add_rms_norm import LigerFusedAddRMSNormFunction as Function
        else:
            from liger_kernel.ops.rms_norm import LigerRMSNormFunction as Function

        def call():
            return Function.apply(*inputs, eps, 0.0, "llama", False)
else:
    module = importlib.import_module(f"{package}.ops.{op}")
    if impl == "ours":
        operator = getattr(module, op)

        def call():
            return operator(*inputs)
    else:
        reference = torch.compile(getattr(module, f"reference_{op}"))

        def call():
            return reference(*inputs, eps)


with torch.no_grad():
    for _ in range(3):
        call()
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    for _ in range(3):
        call()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()
print("ok", op, impl, dtype, rows, cols)
