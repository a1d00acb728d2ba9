"""Lab BR's emulation (issue 11; session 56, 2026-12-01, on the CPU machine, no GPU): the float32
arithmetic of forward_rows' LayerNorm statistics in csrc/row_norm/cuda.cuh (cff6f03's sources), in
numpy, for rows of N = 1024 float32 as the CUDA forward takes them at 4000 x 1024 (a warp a row, eight
vectors of four elements a thread, vector i * 32 + t in thread t): each thread's sums of d = x - shift
and d^2 (d^2 added by a fused multiply-add), Moments.of_sums about `shift - origin` (m2 by a fused
multiply-add), the warp's butterfly of combine_lanes (equal counts: mean as 0.5 (a + b), products and
sums rounded as written), mean = origin + the row's mean, rstd = 1 / sqrt(m2 / N + eps), then x_hat =
(x - mean) rstd (weight 1, bias 0, as the layer's initial values). Float64 sums rounded to float32
emulate each float32 step (a fused multiply-add rounds once). The error: the mean over the tensor of
|y - y64| over the mean of |y64|, y64 torch's float64 layer_norm, as ../../cpu/labs/shift_accuracy.py
measures it, on the same inputs (its seed, N and rows, and its draws: each distance draws x and then
the grad_out it does not need here), so that the first two tables' rows are those of lab BO's and
BP's GPU runs; the column table draws as far_column_accuracy.py does (seed 0 again, x then grad_out).
The torch.nn column is this CPU's (the GPU's torch.nn figures of labs BO and BP differ a little).
Variants: origin the row's first element (main) or the median of its first three (lab BP's m3); each
thread's shift its first element (main) or the median of its first three (t3); m3t both; s3t t3 with
the origin the median of the row's first, middle and last elements.
    python3 emulate_br.py   (its output: emulate_br.txt; about 10 s)"""

import numpy as np
import torch

N, ROWS, THREADS, ITEMS, VEC = 1024, 4000, 32, 8, 4
VARIANTS = {
    "main": ("first", "first"),
    "m3": ("median3", "first"),
    "t3": ("first", "median3"),
    "m3t": ("median3", "median3"),
    "s3t": ("spread3", "median3"),
}


def f32(a):
    """a rounded to float32 (from float64)."""
    return np.asarray(a, dtype=np.float64).astype(np.float32)


def d64(a):
    return np.asarray(a, dtype=np.float64)


def median3(a, b, c):
    return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))


def x_hat(x: np.ndarray, origin_kind: str, shift_kind: str) -> np.ndarray:
    rows = x.shape[0]
    v = x.reshape(rows, ITEMS, THREADS, VEC).transpose(0, 2, 1, 3).reshape(rows, THREADS, ITEMS * VEC)
    origins = {
        "first": lambda: x[:, 0],
        "median3": lambda: median3(x[:, 0], x[:, 1], x[:, 2]),
        "spread3": lambda: median3(x[:, 0], x[:, N // 2], x[:, N - 1]),
    }
    origin = origins[origin_kind]()[:, None]
    shift = v[:, :, 0] if shift_kind == "first" else median3(v[:, :, 0], v[:, :, 1], v[:, :, 2])
    total = np.zeros((rows, THREADS), np.float32)
    squares = np.zeros((rows, THREADS), np.float32)
    for j in range(ITEMS * VEC):
        d = f32(d64(v[:, :, j]) - shift)
        total = f32(d64(total) + d)
        squares = f32(d64(d) * d + squares)  # fused multiply-add
    count = np.full((rows, THREADS), np.float32(ITEMS * VEC))
    mean_d = f32(d64(total) / count)
    mean = f32(d64(f32(d64(shift) - origin)) + mean_d)
    m2 = np.maximum(f32(d64(squares) - d64(total) * mean_d), np.float32(0))  # fused multiply-add
    for offset in (16, 8, 4, 2, 1):
        other = np.arange(THREADS) ^ offset
        d = f32(d64(mean[:, other]) - mean)
        new_mean = f32(0.5 * d64(f32(d64(mean) + mean[:, other])))
        spread = f32(d64(f32(d64(d) * d)) * f32(0.5 * d64(count)))  # mul_rn(mul_rn(d, d), mul_rn(0.5, count))
        m2 = f32(d64(f32(d64(m2) + m2[:, other])) + spread)
        mean, count = new_mean, f32(d64(count) * 2)
    row_mean = f32(d64(origin[:, 0]) + mean[:, 0])
    variance = f32(d64(m2[:, 0]) / N)
    root = f32(np.sqrt(d64(f32(d64(variance) + 1e-5))))  # sqrt and division each rounded, as on the GPU
    rstd = f32(1.0 / d64(root))
    return f32(d64(f32(d64(x) - row_mean[:, None])) * rstd[:, None])


def rows_with(place) -> torch.Tensor:
    x = torch.randn(ROWS, N)
    x = (x - x.mean(1, keepdim=True)) / x.std(1, keepdim=True)
    place(x)
    torch.randn(ROWS, N)  # shift_accuracy.py's grad_out (and far_column_accuracy.py's), drawn as they draw it
    return x


def line(label: str, x: torch.Tensor) -> str:
    exact = torch.nn.functional.layer_norm(x.double(), (N,)).numpy()
    ours = torch.nn.functional.layer_norm(x, (N,)).numpy()

    def error(y):
        return np.abs(d64(y) - exact).mean() / np.abs(exact).mean()

    xs = x.numpy()
    errors = [error(x_hat(xs, *VARIANTS[v])) for v in VARIANTS]
    return f"{label:>13s} | " + " ".join(f"{e:.2e}" for e in errors) + f" | {error(ours):.2e}"


def main() -> None:
    header = "              | " + " ".join(f"{v:8s}" for v in VARIANTS) + " | torch.nn (this CPU)"
    torch.manual_seed(0)
    print(f"emulated float32 y error, {ROWS} x {N}; x[0] from the mean:")
    print(header)
    for k in (0.0, 1.0, 2.0, 3.0, 3.9, 4.5, 8.0, 16.0):
        print(line(f"{k:4.1f} sd", rows_with(lambda x, k=k: x[:, :1].fill_(k))))
    print("x[:16] from the mean:")
    print(header)
    for k in (1.5, 1.9, 2.1, 3.9):
        print(line(f"{k:4.1f} sd", rows_with(lambda x, k=k: x[:, :16].fill_(k))))
    torch.manual_seed(0)
    print("one element 16 sd from the mean, at column c (c = 4t: thread t's first element):")
    print(header)
    for c in (0, 4, 5, 124, 128, 700):
        print(line(f"c = {c}", rows_with(lambda x, c=c: x[:, c].fill_(16.0))))


if __name__ == "__main__":
    main()
