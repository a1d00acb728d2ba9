"""Lab BR (session 56, 2026-12-01): the float32 y error of a LayerNorm project's layer against float64,
beside torch.nn.LayerNorm's, with one element of each row 16 standard deviations from the mean at
column c (c = 4t is thread t's first element where the CUDA forward takes a row a warp at N = 1024,
float32), the rest of the row normal (standardized first): the mean over the tensor of |y - y64| over
the mean of |y64|, as ../../cpu/labs/shift_accuracy.py measures it. N = 1024, 4000 rows, fixed seed;
emulate_br.py emulates the same rows on the CPU (the same draws). Run with the Python whose torch
has the project:
    python3 far_column_accuracy.py PACKAGE [DEVICE]   (DEVICE cuda unless named)"""

import importlib
import sys

import torch

package = importlib.import_module(sys.argv[1])
device = torch.device(sys.argv[2] if len(sys.argv) > 2 else "cuda")
layer = next(getattr(package, n) for n in dir(package) if n.endswith("LayerNorm") and n[0].isupper())
torch.manual_seed(0)
N, ROWS = 1024, 4000
print(f"{sys.argv[1]}.{layer.__name__}, torch {torch.__version__}, {device}, float32, {ROWS} x {N}")
print("column c of x 16 sd off | y: ours   torch.nn")
for c in (0, 4, 5, 124, 128, 700):
    x = torch.randn(ROWS, N)
    x = (x - x.mean(1, keepdim=True)) / x.std(1, keepdim=True)
    x[:, c] = 16.0
    torch.randn(ROWS, N)  # a grad_out, not used: the draws of emulate_br.py's column table
    exact = torch.nn.functional.layer_norm(x.double(), (N,))
    with torch.no_grad():
        ours = layer(N, device=device)(x.to(device)).double().cpu()
        theirs = torch.nn.LayerNorm(N, device=device)(x.to(device)).double().cpu()

    def error(y, exact=exact):
        return ((y - exact).abs().mean() / exact.abs().mean()).item()

    print(f"c = {c:4d}                | {error(ours):.2e} {error(theirs):.2e}")
