"""The few-rows backward's rule (backward_cuda in csrc/bias_activation/cuda.cuh) against what labs 9,
10 and 11 measured: for each shape, dtype and activation, the path the rule takes, its backward time
and the other path's. Lab 9's `few`/`nofew`, lab 10's `fix`/`fixnf` and lab 11's `few`/`nofew` are
the two paths (lab 9's few-rows path at N = 100003 is the one before fold_columns_kernel: left out).
Run from this folder: python3 choose.py > choose.txt"""

import json
import math
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = [("lab9", "few", "nofew"), ("lab10", "fix", "fixnf"), ("lab11", "few", "nofew")]
MIN_ELEMENTS, MIN_FOLDED_ELEMENTS = 6 << 20, 2 << 20  # kFewRowsMinElements, kFewRowsMinFoldedElements


def one_block_row(rows, col_vecs, threads=512, rows_per_thread=4, warp=32):
    """make_geometry's grid.y == 1 for the 512-thread backward, with no bound on the blocks."""
    across = warp
    while across // 2 >= col_vecs and across > 1:
        across //= 2
    down = threads // across
    while down > 1 and (down // 2) * rows_per_thread >= rows:
        down //= 2
    while across * 2 * down <= threads and across < col_vecs:
        across *= 2
    return math.ceil(rows / (down * rows_per_thread)) <= 1


def takes_few(rows, cols, elem_size):
    kvec = 16 // elem_size
    fold = kvec // math.gcd(cols, kvec)
    numel = rows * cols
    krows, col_vecs = numel // (fold * cols), fold * cols // kvec
    least = MIN_FOLDED_ELEMENTS if fold > 1 else MIN_ELEMENTS
    return one_block_row(krows, col_vecs) and numel >= least


def main():
    worst = 0.0
    for lab, few, nofew in SOURCES:
        for rec in json.loads((HERE.parent / lab / f"{lab}.json").read_text()):
            rows, cols = rec["shape"]
            if lab == "lab9" and cols % 8:
                continue
            es = 2 if rec["dtype"] in ("bfloat16", "float16") else 4
            rule = takes_few(rows, cols, es)
            cells = []
            for op in ("relu", "silu", "tanh"):
                t_few, t_no = rec[f"{op}/{few}"] * 1e3, rec[f"{op}/{nofew}"] * 1e3
                taken, other = (t_few, t_no) if rule else (t_no, t_few)
                worst = max(worst, taken - other)
                cells.append(f"{op} {taken:6.1f} ({other - taken:+5.1f})")
            path = "few-rows" if rule else "512-thread"
            print(f"{lab:5s} {rows:>3d}x{cols:<7d} {rec['dtype']:8s} {path:10s} " + "  ".join(cells))
    print(f"most time the rule's path takes over the other path: {worst:.1f} us")


if __name__ == "__main__":
    main()
