"""Emulates, in float32, a row's statistics as the CUDA forward combines them (per-thread sums about
the thread's first element, then Chan's pairwise combination over a butterfly of threads and blocks),
against one sum about the row's first element (the CPU loops' one pass): the error of the mean, in ulps
of 1000, for float32 rows of mean 1000 and standard deviation 1 (20 rows each). Chan's mean in two
forms: ma + (mb - ma) nb / n, and (na ma + nb mb) / n as Moments::combine computes it where counts
differ. numpy only: every combination takes the form named (the kernels take a midpoint where a
warp's counts are equal), and the kernels' fast division (__fdividef, 2 ulp) is not reproduced.

    python chan_emulation.py > chan_emulation.txt
"""

import numpy as np

f32 = np.float32
rng = np.random.default_rng(0)


def thread_moments(x):
    shift = x[0]
    d = (x - shift).astype(f32)
    s = f32(0)
    q = f32(0)
    for v in d:
        s = f32(s + v)
        q = f32(q + f32(v * v))
    n = f32(len(x))
    mean = f32(shift + f32(s / n))
    m2 = f32(q - f32(f32(s * s) / n))
    return n, mean, m2


def combine(a, b, weighted=False):
    na, ma, qa = a
    nb, mb, qb = b
    n = f32(na + nb)
    delta = f32(mb - ma)
    if weighted:  # as Moments::combine in csrc/row_norm/cuda.cuh: (na ma + nb mb) / n, rounded at each step
        mean = f32(f32(f32(na * ma) + f32(nb * mb)) / n)
    else:
        mean = f32(ma + f32(delta * f32(nb / n)))
    m2 = f32(f32(qa + qb) + f32(f32(delta * delta) * f32(f32(na * nb) / n)))
    return n, mean, m2


def tree(parts, weighted=False):
    while len(parts) > 1:
        parts = [combine(parts[i], parts[i + 1], weighted) for i in range(0, len(parts), 2)]
    return parts[0]


def one_pass(x):
    shift = x[0]
    d = (x - shift).astype(f32)
    acc = np.zeros(32, f32)
    acc2 = np.zeros(32, f32)  # 4 accumulators x 8 lanes
    for i in range(0, len(d), 32):
        acc = (acc + d[i : i + 32]).astype(f32)
        acc2 = (acc2 + (d[i : i + 32] * d[i : i + 32]).astype(f32)).astype(f32)
    s = f32(acc.astype(np.float64).sum())
    q = f32(acc2.astype(np.float64).sum())
    n = f32(len(x))
    dm = f32(s / n)
    return n, f32(shift + dm), f32(f32(q / n) - f32(dm * dm)) * n


for n, per_thread in ((32768, 16), (32768, 64)):
    errors = {"delta form": [], "weighted form (the kernels')": [], "one pass": []}
    for _ in range(20):
        x = (1000 + rng.standard_normal(n)).astype(f32)
        exact = x.astype(np.float64).mean()
        parts = [thread_moments(x[i : i + per_thread]) for i in range(0, n, per_thread)]
        ulp = np.spacing(f32(1000))
        for name, mean in (
            ("delta form", tree(parts)[1]),
            ("weighted form (the kernels')", tree(parts, weighted=True)[1]),
            ("one pass", one_pass(x)[1]),
        ):
            errors[name].append(abs(float(mean) - exact) / ulp)
    print(
        f"N={n}, {per_thread} elements a thread, the mean's error in ulps of 1000 (max, median): "
        + "; ".join(f"{name} {max(e):.2f}, {np.median(e):.2f}" for name, e in errors.items())
    )
