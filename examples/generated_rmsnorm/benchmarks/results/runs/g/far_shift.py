"""LayerNorm's backward statistics in float32, emulated on the CPU: the CUDA backward's sums about the
row's first element (d = x - x[0]), without and with the second look about the mean that
far_row_sums.patch adds where (x[0] - mean)^2 > 16 variance. Rows of N values drawn from a normal
distribution of mean 0.5 and standard deviation 2, the first element set to `first`; errors of
grad_x over its RMS, against float64. Plain sums in the order of torch's float32 reduction (not the
GPU's butterfly), which changes the rounding, not the cancellation. N = 4096, then N = 96."""

import torch

torch.manual_seed(0)
ROWS, FAR_SHIFT = 16, 16.0


def grad_x(x, w, dy, shift, eps=1e-5):
    n = x.shape[-1]
    d = x - shift
    wdy = w * dy
    s = [
        d.sum(-1, keepdim=True),
        (d * d).sum(-1, keepdim=True),
        wdy.sum(-1, keepdim=True),
        (d * wdy).sum(-1, keepdim=True),
    ]
    d_mean = s[0] / n
    variance = (s[1] / n - d_mean * d_mean).clamp_min(0)
    mean = shift + d_mean
    rstd = torch.rsqrt(variance + eps)
    c2 = s[2] / n
    c1 = rstd * (s[3] - d_mean * s[2]) / n
    x_hat = (x - mean) * rstd
    return rstd * (wdy - c2 - x_hat * c1), d_mean, s[1] / n - d_mean * d_mean


def main(N):
    print(f"float32, {ROWS} x {N}, eps 1e-5; error = max |grad_x - float64| / RMS of float64 grad_x")
    print("first element | about x[0] | rows taking the second look | with the second look")
    for first in (None, 10.0, 100.0, 1000.0, 1e4):
        x64 = 2 * torch.randn(ROWS, N, dtype=torch.float64) + 0.5
        if first is not None:
            x64[:, 0] = first
        w64 = 1 + 0.5 * torch.randn(N, dtype=torch.float64)
        dy64 = torch.randn(ROWS, N, dtype=torch.float64)
        x, w, dy = x64.float(), w64.float(), dy64.float()
        expected, _, _ = grad_x(x.double(), w.double(), dy.double(), x.double().mean(-1, keepdim=True))
        rms = expected.pow(2).mean().sqrt()
        once, d_mean, spread = grad_x(x, w, dy, x[:, :1])
        far = d_mean * d_mean > FAR_SHIFT * spread
        again, _, _ = grad_x(x, w, dy, torch.where(far, x[:, :1] + d_mean, x[:, :1]))
        label = "N(0.5, 4)" if first is None else f"{first:g}"
        once_error, again_error = (((g.double() - expected).abs().max() / rms).item() for g in (once, again))
        print(f"{label:>13} | {once_error:.2e} | {int(far.sum())} of {ROWS} | {again_error:.2e}")


main(4096)
main(96)
