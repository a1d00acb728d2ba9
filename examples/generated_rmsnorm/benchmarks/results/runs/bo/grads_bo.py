"""Lab BO (issue 11): the outputs and gradients of a row-norm project's operator on fixed inputs, each
as its SHA-256 (with its largest magnitude and its sum in float64), for a bitwise comparison of builds
(compare_bo.py) without files of gigabytes. Random rows, rows whose first element holds a large value
(an LLM's "massive activation") and rows whose first three elements lie far from the rest (those
LayerNorm's kernels sum again), in bfloat16, float16 and float32. Run from a build's root:
    python3 grads_bo.py OP OUT.json   (BO_DEVICE: cuda unless named; BO_SHAPES: M x N,...)
From lab BK's grads_bk.py, which saved the tensors and took a weight and a bias."""

import hashlib
import json
import os
import sys

import torch

sys.path.insert(0, "benchmarks")
sys.path.insert(0, "src")
from harness import runner  # noqa: E402
from harness.row_norm import FAMILY  # noqa: E402

op, out = sys.argv[1:3]
spec = runner.load_spec(FAMILY, op)
device = torch.device(os.environ.get("BO_DEVICE", "cuda"))
shapes = os.environ.get("BO_SHAPES", "1024x65536,2048x32768,300x65536")


def digest(t: torch.Tensor) -> dict:
    data = t.detach().contiguous().cpu()
    return {
        "sha256": hashlib.sha256(data.view(torch.uint8).numpy().tobytes()).hexdigest(),
        "absmax": data.double().abs().max().item() if data.numel() else 0.0,
        "sum": data.double().sum().item(),
    }


results = {}
for dtype in (torch.bfloat16, torch.float16, torch.float32):
    for shape in [tuple(int(d) for d in s.split("x")) for s in shapes.split(",")]:
        generator = torch.Generator().manual_seed(shape[0] * 7 + shape[1])

        def draw(*size, g=generator):
            return torch.randn(*size, generator=g)

        x = 2 * draw(*shape) + 0.5
        x[::5, 0] += 300  # a massive activation in the first channel
        x[3::11, :3] += 40  # the first three elements far from the row's mean
        inputs = [x] + ([draw(*shape)] if spec.residual_add else [])
        center = 0.0 if spec.zero_centered_weight else 1.0
        params = [center + 0.1 * draw(shape[1])] + ([0.1 * draw(shape[1])] if spec.has_bias else [])
        args = [t.to(device=device, dtype=dtype).requires_grad_() for t in inputs + params]
        outputs = spec.function(*args)
        outputs = list(outputs) if isinstance(outputs, tuple) else [outputs]
        grads_out = [draw(*shape).to(device=device, dtype=dtype) for _ in outputs]
        grads = torch.autograd.grad(outputs, args, grads_out)
        name = f"{str(dtype)[6:]} {shape[0]}x{shape[1]}"
        for i, t in enumerate(outputs):
            results[f"{name} output {i}"] = digest(t)
        for i, t in enumerate(grads):
            results[f"{name} grad {i}"] = digest(t)
        del args, outputs, grads, grads_out
with open(out, "w") as f:
    json.dump(results, f, indent=1)
print(f"{len(results)} tensors of {op} digested into {out}")
