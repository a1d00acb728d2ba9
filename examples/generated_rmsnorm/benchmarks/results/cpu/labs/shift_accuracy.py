"""Lab shift_accuracy (session 54, 2026-12-01; after a demanding-user probe's finding): the float32 error
of a LayerNorm project's CPU loops against float64, beside torch.nn.LayerNorm's, where each row's first
element (in a second table, its first 16) lies K standard deviations from the row's mean (the row's
other elements normal, the row standardized first): the mean over the tensor of |y - y64| over the mean
of |y64|, and the same of grad_x (one backward of fixed random grad_out). N = 1024, 4000 rows, fixed
seed. Run with the Python whose torch has the project installed:
    python3 shift_accuracy.py PACKAGE [DEVICE]   (e.g. example_layer_norm; DEVICE cpu unless named:
    lab BO of ../../runs/bo/ runs it on cuda, where the CUDA kernels still sum about the first element)
shift_accuracy.txt: the CPU loops summing about the row's first element (HEAD 7011fc2) and then about
the mean of its first vector (with kCpuFarShift) on this repository's development machine."""

import importlib
import sys

import torch

package = importlib.import_module(sys.argv[1])
device = torch.device(sys.argv[2] if len(sys.argv) > 2 else "cpu")
layer = next(getattr(package, n) for n in dir(package) if n.endswith("LayerNorm") and n[0].isupper())
torch.manual_seed(0)
N, ROWS = 1024, 4000
print(f"{sys.argv[1]}.{layer.__name__}, torch {torch.__version__}, {device}, float32, {ROWS} x {N}")


def table(moved: int, distances: tuple[float, ...]) -> None:
    """The errors with the row's first `moved` elements each `distance` standard deviations off."""
    label = "x[0]" if moved == 1 else f"x[:{moved}]"
    print(f"{label:5s} from the mean | y: ours   torch.nn | grad_x: ours   torch.nn")
    for k in distances:
        x = torch.randn(ROWS, N)
        x = (x - x.mean(1, keepdim=True)) / x.std(1, keepdim=True)
        x[:, :moved] = k
        grad = torch.randn(ROWS, N)
        results = {}
        for name, module, inputs in (
            ("ours", layer(N, device=device), x),
            ("torch", torch.nn.LayerNorm(N, device=device), x),
            ("f64", torch.nn.LayerNorm(N, device=device).double(), x.double()),
        ):
            inputs = inputs.to(device).clone().requires_grad_()
            y = module(inputs)
            y.backward(grad.to(device=device, dtype=y.dtype))
            results[name] = (y.detach().double().cpu(), inputs.grad.double().cpu())

        def error(name, i, results=results):
            exact = results["f64"][i]
            return ((results[name][i] - exact).abs().mean() / exact.abs().mean()).item()

        print(
            f"{k:4.1f} sd            | {error('ours', 0):.2e} {error('torch', 0):.2e} "
            f"| {error('ours', 1):.2e} {error('torch', 1):.2e}"
        )


# The first element alone; then the first 16 (a whole vector of float32 with AVX512, two with AVX2),
# which puts the CPU loops' shift itself that far off: just inside and past their bound (2).
table(1, (0.0, 1.0, 2.0, 3.0, 3.9, 4.5, 8.0, 16.0))
table(16, (1.5, 1.9, 2.1, 3.9))
