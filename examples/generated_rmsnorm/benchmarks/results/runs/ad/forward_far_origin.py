"""forward_far_origin.py (lab AD4's failure, emulated): the CUDA forward of rows held neither in
registers nor in a cluster (forward_rows in several passes: LayerNorm float32 at 3 x 300001, one
block of 512 threads, 8 vectors of 4 a thread a pass, 19 passes) combines per-pass Moments whose
means are taken relative to the row's origin (row_origin: its first element), with Chan's formula
as Moments::combine rounds it, in float32: the passes one after another in each thread, then the
threads in a tree (the warp's shuffles, then the block's warps). Where the origin lies far from the
mean (the first element 1000 among values of mean 0.5 and standard deviation 2, as
test_rows_whose_first_element_lies_far_from_the_others makes them), every mean and product so
combined is some 1000 large and rounds at that magnitude. Prints, for a few draws, the mean's error
and the largest error of y over the test's float32 bound (2e-5 of 10 times y's RMS plus 2e-5 of the
element), for the first element as the origin and for the median of the first three."""

import numpy as np

N, THREADS, ITEMS, VEC = 300001, 512, 8, 4
f32 = np.float32


def combine(a, b):
    (na, ma, m2a), (nb, mb, m2b) = a, b
    if na == 0:
        return b
    if nb == 0:
        return a
    n = f32(na + nb)
    d = f32(mb - ma)
    mean = f32(f32(f32(na * ma) + f32(nb * mb)) / n)
    m2 = f32(f32(m2a + m2b) + f32(f32(d * d) * f32(f32(na * nb) / n)))
    return (n, mean, m2)


def of_sums(count, shift, s, sq):
    if count == 0:
        return (f32(0), f32(0), f32(0))
    c = f32(count)
    mean_d = f32(s / c)
    return (c, f32(shift + mean_d), max(f32(sq - f32(s * mean_d)), f32(0)))


def row_stats(x, origin):
    # the columns of thread t in pass p: vectors j = p * THREADS * ITEMS + i * THREADS + t (each 4 wide)
    per_pass = THREADS * ITEMS * VEC
    passes = (len(x) + per_pass - 1) // per_pass
    stats = []
    for t in range(THREADS):
        st = (f32(0), f32(0), f32(0))
        for p in range(passes):
            cols = []
            for i in range(ITEMS):
                j = (p * ITEMS + i) * THREADS + t
                cols.extend(range(j * VEC, min(j * VEC + VEC, len(x))))
            if not cols:
                continue
            v = x[cols]
            shift = v[0]
            d = (v - shift).astype(f32)
            s = f32(0)
            sq = f32(0)
            for e in d:
                s = f32(s + e)
                sq = f32(sq + f32(e * e))
            st = combine(st, of_sums(len(cols), f32(shift - origin), s, sq))
        stats.append(st)
    while len(stats) > 1:  # a tree, as the shuffles and the block's warps combine
        stats = [combine(stats[k], stats[k + 1]) for k in range(0, len(stats), 2)]
    n, mean, m2 = stats[0]
    return f32(origin + mean), f32(1 / np.sqrt(f32(m2 / f32(len(x))) + f32(1e-5)))


rng = np.random.default_rng(0)
print("draw | origin | mean error | y error / bound (largest)")
for draw in range(4):
    x = (2 * rng.standard_normal(N) + 0.5).astype(f32)
    x[0] = 1000
    w = (1 + 0.5 * rng.standard_normal(N)).astype(f32)
    xd = x.astype(np.float64)
    mean64 = xd.mean()
    rstd64 = 1 / np.sqrt(xd.var() + 1e-5)
    y64 = (xd - mean64) * rstd64 * w
    bound = 2e-5 * 10 * np.sqrt((y64**2).mean()) + 2e-5 * np.abs(y64)
    for name, origin in (("first", x[0]), ("median3", np.median(x[:3]).astype(f32))):
        mean, rstd = row_stats(x, f32(origin))
        y = ((x - mean) * rstd * w).astype(f32)
        print(
            f"{draw} | {name:7} | {float(mean) - mean64:+.2e} | {np.max(np.abs(y - y64) / bound):.2f}",
            flush=True,
        )
