"""Lab AT's variant (issue 11) of a rendered row-norm project's csrc/row_norm/cuda.cuh: the runs
README's at/ design, a backward without the float32 workspace, as keep.diff writes it (each hunk's
lines before and after, which must match exactly once).
    python3 variant_at.py PROJECT keep|keep2|probe|blocksum|cs|keep3|probe3|keep4|halve
keep: where the backward stages rows from each row's start without a cluster, every row group has at
least `keep` rows (the rows of grad_x its float sums fill: params * sizeof(float) / sizeof(x's dtype),
at most its stages; RMSNorm's and the residual-add RMSNorm's every dtype, the LayerNorms' float32),
and the GPU takes cooperative launches: each row group keeps its last `keep` rows of grad_x in their
stages, writes its sums where those rows go, and after a grid barrier the grid adds every group's
sums in a fixed order into grad_weight (and grad_bias); after a second barrier each group writes its
kept rows. No workspace and no sum_rows_kernel there; elsewhere the workspace as before.
ROW_NORM_KEEP=0 turns it off at run time.
keep2 (keep2.diff, lab AT2): keep, with the grid's sum spread over every block where the columns allow
(chunks of 32, 16 or 8 columns), read by pointer steps through L2, eight loads ahead.
probe (probe.diff, lab AT3): keep2, with ROW_NORM_AT_LEAVE_OUT (a sum of 1: the grid's sum, 2: the
second barrier, 4: the kept rows' writes, 8: the first barrier) leaving those steps out, so that
timings with and without each give its cost (the results are then wrong).
blocksum (blocksum.diff, lab AT3; main's workspace, no keep): where a staged block (rows from each
row's start, no cluster) holds several row groups, it adds their sums in shared memory (its stages,
once read) in group order and writes one workspace row a block, not one a row group. At one row group
a block (the large shapes) its code does not run, but it moves registers as keep does (ptxas): a
control for what those cost.
cs (cs.diff, lab AT3; main's kernels otherwise): the 16-byte vectors read or written once marked as
streamed (ld.global.cs, st.global.cs: evicted from the caches first), the forward's row reads (x,
without a residual add) and output writes (y) and the backward's grad_x writes, as Inductor's
kernels mark their loads with eviction policies. (Rows read again in each pass, not held in
registers, would lose their L2 hits: none of lab AT3's shapes.)
keep3 (keep3.diff, lab AT4): keep with one grid barrier. Where keep applies and some count of blocks
from backward_groups' down to 3/4 of it divides the columns (params x N), the grid takes the most such
blocks; block b adds columns [b w, (b + 1) w) (w = columns / blocks) of every row group's sums, and
every group writes those sums into the kept rows of block b's own groups (sum (g, c) at g w + c - b w
of that store, a row group's columns a row group, per_row a row). After the barrier each block reads
only its own store (16 bytes a load where w allows, else 4; eight loads issued together, no branch
between them), writes its columns of grad_weight (and grad_bias), then its kept rows over the store.
probe3 (probe3.diff, lab AT5): keep3 with ROW_NORM_AT_LEAVE_OUT (a sum of 1: the block's sum, 2: the
kept rows' writes, 4: the barrier, 8: the sums' writes; the results are then wrong) and
ROW_NORM_AT_DIVISOR_ONLY=1 (keep3's count of blocks on main's workspace and sum). It also issues four
16-byte loads together where keep3 issues eight (eight 4-byte ones as keep3), which moved registers
(ptxas: the one-vector 16-bit kernels 80 to 82 in keep3, 52 to 56 in probe3).
keep4 (keep4.diff, lab AT6): keep2's layout (each row group's sums in its own kept rows; every resident
block, no divisor) with a block sum like keep3's over each block's share of the columns' 16-byte
units (four loads issued together, two where a thread holds one vector), the subsets' totals by a
fixed tree; then the second barrier and the kept rows.
halve (halve.diff, lab AT7; main's kernels otherwise): with ROW_NORM_AT_HALVE set, the staged backward
of an uncentered norm over 16-bit rows of several vectors a thread takes half the blocks a
multiprocessor it holds, rounded up."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import variants  # noqa: E402


def hunks(diff: str) -> list[tuple[str, str]]:
    """(old, new) of each hunk of a unified diff: its context and removed lines, its context and added."""
    edits: list[tuple[str, str]] = []
    old: list[str] | None = None
    new: list[str] = []
    for line in diff.splitlines(keepends=True):
        if line.startswith("@@"):
            if old is not None:
                edits.append(("".join(old), "".join(new)))
            old, new = [], []
        elif old is not None and line[:1] in (" ", "-", "+"):
            if line[0] != "+":
                old.append(line[1:])
            if line[0] != "-":
                new.append(line[1:])
    if old is not None:
        edits.append(("".join(old), "".join(new)))
    return edits


HERE = Path(__file__).resolve().parent
NAMES = ("keep", "keep2", "probe", "blocksum", "cs", "keep3", "probe3", "keep4", "halve")
EDITS = {name: hunks((HERE / f"{name}.diff").read_text()) for name in NAMES}

if __name__ == "__main__":
    variants.main(EDITS, sys.argv)
