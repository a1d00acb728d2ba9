"""Lab P: the float32 forward's error on rows far from zero (mean 1000, standard deviation 1), ours
and eager's, against a float64 reference, for the LayerNorm projects of the GPU bundle.

Usage (in a built project's folder): python3 mean_error.py OPERATOR [DEVICE]  (layer_norm or
fused_add_layer_norm; cuda unless DEVICE is given). Prints, for each shape, the largest
|y - reference| as a multiple of the suite's float32 tolerance (2e-5 of the largest |reference|),
and the largest error of the row means that y implies, in ulps of 1000 (6.1e-5). Eager:
F.layer_norm of x (of x + residual, rounded to float32, with the residual add). Weight and bias
random normal, as the suite's inputs.
"""

import importlib
import sys

import torch
import torch.nn.functional as F

op_name = sys.argv[1]
op = getattr(importlib.import_module(f"example_{op_name}.ops.{op_name}"), op_name)
device = sys.argv[2] if len(sys.argv) > 2 else "cuda"
residual_add = op_name.startswith("fused_add")
ULP_1000 = 2.0**-14

torch.manual_seed(0)
for rows, cols in [(300, 4096), (6, 32768), (3, 100003), (64, 65536), (1024, 4095)]:
    generator = torch.Generator().manual_seed(11)
    x = (1000.0 + torch.randn(rows, cols, generator=generator)).to(device)
    residual = (torch.randn(rows, cols, generator=generator) * 0.01).to(device)
    weight = torch.randn(cols, generator=generator).to(device)
    bias = torch.randn(cols, generator=generator).to(device)
    h = (x + residual) if residual_add else x  # float32, as the operator rounds the sum
    reference = F.layer_norm(h.double(), (cols,), weight.double(), bias.double(), 1e-5)
    tolerance = 2e-5 * reference.abs().max().item()
    with torch.no_grad():
        ours = op(x, residual, weight, bias)[0] if residual_add else op(x, weight, bias)
        eager = F.layer_norm(h, (cols,), weight, bias, 1e-5)
    for name, y in [("ours", ours), ("eager", eager)]:
        error = (y.double() - reference).abs()
        # The mean each row's output implies: y = (h - m) rstd w + b, so m = h - (y - b) / (rstd w)
        # at the element of the row whose |w| is largest (the least rounding of y weighs there).
        rstd = 1.0 / torch.sqrt(h.double().var(-1, unbiased=False) + 1e-5)
        j = weight.abs().argmax()
        implied = h.double()[:, j] - (y.double()[:, j] - bias.double()[j]) / (rstd * weight.double()[j])
        mean_error = (implied - h.double().mean(-1)).abs().max().item() / ULP_1000
        print(
            f"{op_name} {rows}x{cols} {name}: max |y - ref| {error.max().item():.3e} = "
            f"{error.max().item() / tolerance:.2f} x tolerance; "
            f"row means off by up to {mean_error:.2f} ulp(1000)"
        )
