"""Lab BK (issue 11): the outputs and gradients of a LayerNorm project's operator on fixed inputs, for
a bitwise comparison of builds (compare_bk.py). Random rows, rows whose first element holds a large
value (an LLM's "massive activation"), and rows whose first three elements lie far from the rest
(those LayerNorm's CUDA backward sums again: far_row_sums). Run from a build's root:
    python3 grads_bk.py OP OUT.pt   (BK_DEVICE: cuda unless named; BK_SHAPES: M x N,...)"""

import os
import sys

import torch

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

op, out = sys.argv[1:3]
spec = runner.load_spec(FAMILY, op)
device = torch.device(os.environ.get("BK_DEVICE", "cuda"))
shapes = os.environ.get("BK_SHAPES", "1024x65536,2048x32768,300x65536")
results = {}
for dtype in (torch.bfloat16, torch.float16):
    for shape in [tuple(int(d) for d in s.split("x")) for s in shapes.split(",")]:
        generator = torch.Generator().manual_seed(shape[0] * 7 + shape[1])

        def draw(*size, g=generator):
            return torch.randn(*size, generator=g)

        x = 2 * draw(*shape) + 0.5
        x[::5, 0] += 300  # a massive activation in the first channel
        x[3::11, :3] += 40  # the first three elements far from the row's mean
        inputs = [x] + ([draw(*shape)] if spec.residual_add else [])
        params = [1 + 0.1 * draw(shape[1]), 0.1 * draw(shape[1])]
        args = [t.to(device=device, dtype=dtype).requires_grad_() for t in inputs + params]
        outputs = spec.function(*args)
        outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
        grads_out = [draw(*shape).to(device=device, dtype=dtype) for _ in outputs]
        grads = torch.autograd.grad(outputs, args, grads_out)
        name = f"{str(dtype)[6:]} {shape[0]}x{shape[1]}"
        for i, t in enumerate(outputs):
            results[f"{name} output {i}"] = t.detach().cpu()
        for i, t in enumerate(grads):
            results[f"{name} grad {i}"] = t.cpu()
torch.save(results, out)
print(f"{len(results)} tensors of {op} saved to {out}")
