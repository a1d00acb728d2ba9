"""Lab BR's emulation of the CUDA backward's float32 LayerNorm grad_x (issue 11; session 56, 2026-12-01,
numpy on the CPU machine), cruder than emulate_br.py's of the forward: the row's sums of d = x - shift,
d^2, dy and d dy (weight 1) each thread over its vector (the backward's geometry at 4000 x 1024
float32: pick_items gives 256 threads a row, one vector of four each) and then over the threads, in a
butterfly of xor offsets 1 to 128 (the kernel's order, a warp's reduce-scatter and then across its
eight warps, is not followed to the letter); mean, rstd, c2 = mean(dy) and c1 = rstd (sum(d dy) - mean(d)
sum(dy)) / N as backward_kernel takes them, grad_x = rstd (dy - c2 - x_hat c1). A row whose shift lies
far from its mean (kFarShift: more than four deviations) is summed again on the GPU; this emulation
does not (with the spread shift, a row or so of the 4.5 sd table's 4,000 is far by that rule).
Shifts: backward_shift's median of the row's first three elements (main), or of its first, middle and
last (s3t). Inputs:
../../cpu/labs/shift_accuracy.py's (its seed, N, rows and draws); the error as it measures grad_x's
(the mean over the tensor of |grad_x - grad_x64| over the mean of |grad_x64|).
    python3 emulate_br_backward.py   (its output: emulate_br_backward.txt; about 10 s)"""

import numpy as np
import torch
from emulate_br import d64, f32, median3

N, ROWS, THREADS, ITEMS, VEC = 1024, 4000, 256, 1, 4


def lanes(a: np.ndarray) -> np.ndarray:
    return a.reshape(a.shape[0], ITEMS, THREADS, VEC).transpose(0, 2, 1, 3).reshape(a.shape[0], THREADS, -1)


def butterfly(v: np.ndarray) -> np.ndarray:
    for offset in (1, 2, 4, 8, 16, 32, 64, 128):
        v = f32(d64(v) + v[:, np.arange(THREADS) ^ offset])
    return v[:, 0]


def grad_x(x: np.ndarray, dy: np.ndarray, shift_kind: str) -> np.ndarray:
    rows = x.shape[0]
    far = (x[:, 1], x[:, 2]) if shift_kind == "first3" else (x[:, N // 2], x[:, N - 1])
    shift = median3(x[:, 0], *far)[:, None]
    xv, gv = lanes(x), lanes(dy)
    sums = [np.zeros((rows, THREADS), np.float32) for _ in range(4)]
    for j in range(ITEMS * VEC):
        d = f32(d64(xv[:, :, j]) - shift)
        g = gv[:, :, j]
        sums[0] = f32(d64(sums[0]) + d)
        sums[1] = f32(d64(d) * d + sums[1])  # fused multiply-adds
        sums[2] = f32(d64(sums[2]) + g)
        sums[3] = f32(d64(d) * g + sums[3])
    s_d, s_dd, s_g, s_dg = (butterfly(v) for v in sums)
    inv_n = np.float32(1.0 / N)
    d_mean = f32(d64(s_d) * inv_n)
    variance = np.maximum(f32(d64(s_dd) * inv_n - d64(d_mean) * d_mean), np.float32(0))
    mean = f32(d64(shift[:, 0]) + d_mean)
    rstd = f32(1.0 / d64(f32(np.sqrt(d64(f32(d64(variance) + 1e-5))))))
    c2 = f32(d64(s_g) * inv_n)
    c1 = f32(d64(f32(d64(rstd) * f32(d64(s_dg) - d64(d_mean) * s_g))) * inv_n)
    x_hat = f32(d64(f32(d64(x) - mean[:, None])) * rstd[:, None])
    inner = f32(d64(f32(d64(dy) - c2[:, None])) - d64(x_hat) * c1[:, None])
    return f32(d64(rstd[:, None]) * inner)


def table(moved: int, distances: tuple[float, ...]) -> None:
    label = "x[0]" if moved == 1 else f"x[:{moved}]"
    print(f"{label:5s} from the mean | grad_x: main     s3t      | torch.nn (this CPU)")
    for k in distances:
        x = torch.randn(ROWS, N)
        x = (x - x.mean(1, keepdim=True)) / x.std(1, keepdim=True)
        x[:, :moved] = k
        grad = torch.randn(ROWS, N)
        exact_in = x.double().requires_grad_()
        torch.nn.functional.layer_norm(exact_in, (N,)).backward(grad.double())
        ours_in = x.clone().requires_grad_()
        torch.nn.functional.layer_norm(ours_in, (N,)).backward(grad)
        exact = exact_in.grad.numpy()

        def error(g, exact=exact):
            return np.abs(d64(g) - exact).mean() / np.abs(exact).mean()

        xs, gs = x.numpy(), grad.numpy()
        print(
            f"{k:4.1f} sd            |         {error(grad_x(xs, gs, 'first3')):.2e} "
            f"{error(grad_x(xs, gs, 'spread3')):.2e} | {error(ours_in.grad.numpy()):.2e}"
        )


torch.manual_seed(0)
table(1, (0.0, 1.0, 2.0, 3.0, 3.9, 4.5, 8.0, 16.0))
table(16, (1.5, 1.9, 2.1, 3.9))
