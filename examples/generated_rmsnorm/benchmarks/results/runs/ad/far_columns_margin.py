"""far_columns_margin.py (lab AD; after g2/far_first_margin.py): how far past its bound
test_rows_whose_first_element_lies_far_from_the_others would find LayerNorm's grad_x with the CUDA
backward's sums taken once about each row's origin, the median of its first three elements (backward_shift)
(before the mend), and with the mend's second sums about the mean, emulated in float32 on the CPU.

The test's inputs (make_inputs for LayerNorm: x = 2 randn + 0.5, weight = 1 + 0.5 randn, every other
row's first `far` elements 1000, float32) and bound (assert_close with float32's 2e-5 of 10 times the
reference's RMS plus 2e-5 of each element). Prints, for each of the test's shapes (and the shapes
whose rows share a warp) and three draws, the largest error over the bound (above 1: the test fails)
and the largest error over the reference's RMS. The bias does not enter grad_x."""

import torch

SHAPES = [(64, 32), (63, 64), (64, 96), (16, 4096), (2000, 4096), (4, 65536), (3, 300001), (37, 4095)]
TOL, EPS = 2e-5, 1e-5


def grad_x(x, w, dy, mended):
    """grad_x as backward_kernel computes it, in float32: sums about the median of x[:, :3], then
    (mended) again about the mean where (that median - mean)^2 > 16 variance."""
    n = x.shape[-1]

    def sums(shift):
        d, wdy = x - shift, w * dy
        return [t.sum(-1, keepdim=True) for t in (d, d * d, wdy, d * wdy)]

    shift = x[:, :3].median(-1, keepdim=True).values
    s = sums(shift)
    d_mean = s[0] / n
    if mended:
        far = d_mean * d_mean > 16 * (s[1] / n - d_mean * d_mean)
        shift = torch.where(far, shift + d_mean, shift)
        s = [torch.where(far, again, once) for again, once in zip(sums(shift), s, strict=True)]
        d_mean = s[0] / n
    rstd = 1 / torch.sqrt((s[1] / n - d_mean * d_mean).clamp_min(0) + EPS)
    c2, c1 = s[2] / n, rstd * (s[3] - d_mean * s[2]) / n
    return rstd * (w * dy - c2 - (x - shift - d_mean) * rstd * c1)


def reference(x, w, dy):
    x, w = x.double().requires_grad_(), w.double().requires_grad_()
    y = torch.nn.functional.layer_norm(x, (x.shape[-1],), w, None, EPS)
    return torch.autograd.grad(y, x, dy.double())[0]


print("far | shape | draw | before the mend: error / bound, error / RMS | mended: error / bound, error / RMS")
for far, shape, draw in [(f, s, d) for f in (1, 2, 3) for s in SHAPES for d in range(3)]:
    if True:
        torch.manual_seed(draw)
        n = shape[-1]
        x = (2 * torch.randn(shape, dtype=torch.float64) + 0.5).float()
        x[::2, :far] = 1000
        w = (1 + 0.5 * torch.randn(n, dtype=torch.float64)).float()
        dy = torch.randn(shape, dtype=torch.float64).float()
        expected = reference(x, w, dy)
        rms = expected.pow(2).mean().sqrt().item()
        cells = []
        for mended in (False, True):
            error = (grad_x(x, w, dy, mended).double() - expected).abs()
            bound = TOL * 10 * rms + TOL * expected.abs()
            cells.append(f"{(error / bound).max().item():.2f}, {error.max().item() / rms:.2e}")
        print(f"{far} | {shape} | {draw} | " + " | ".join(cells), flush=True)

# test_the_backward_of_rows_whose_first_element_lies_far_keeps_float32s_digits: 4 x 100003, the first
# `far` elements of every row set to 1e4 or 1e6, its bound 2e-5 of grad_x's largest magnitude.
print("\nfar | value | draw | before the mend: error / bound | mended: error / bound")
for far, value, draw in [(f, v, d) for f in (1, 2) for v in (1e4, 1e6) for d in range(3)]:
    torch.manual_seed(draw)
    x = (2 * torch.randn((4, 100003), dtype=torch.float64) + 0.5).float()
    x[:, :far] = value
    w = (1 + 0.5 * torch.randn(100003, dtype=torch.float64)).float()
    dy = torch.randn((4, 100003), dtype=torch.float64).float()
    expected = reference(x, w, dy)
    bound = 2e-5 * expected.abs().max().item()
    errors = [(grad_x(x, w, dy, m).double() - expected).abs().max().item() for m in (False, True)]
    cells = [f"{error / bound:.2f}" for error in errors]
    print(f"{far} | {value:g} | {draw} | " + " | ".join(cells), flush=True)
