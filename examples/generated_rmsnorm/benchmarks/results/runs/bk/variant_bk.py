"""Lab BK's variants (issue 11) of a rendered LayerNorm project, from analysis BK (analysis_bk.md):
`c1`, the shift of clustered staged rows from a per-warp staged copy of the row's first 16 bytes
(the first three hunks of candidates_bk.diff); `c12`, c1 and the output pass as fused multiply-adds
(all five hunks). Each hunk's old lines matched exactly once in csrc/row_norm/cuda.cuh (lab BD's
apply).
    python3 variant_bk.py PROJECT c1|c12"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bd"))
from variant_bd import apply  # noqa: E402

KERNELS = "csrc/row_norm/cuda.cuh"
HUNKS_OF = {"c1": 3, "c12": 5}


def candidate_hunks() -> list[tuple[str, str]]:
    """(old text, new text) of each hunk of candidates_bk.diff, a diff of one file without git's header."""
    pairs: list[tuple[str, str]] = []
    old: list[str] = []
    new: list[str] = []
    for line in (Path(__file__).parent / "candidates_bk.diff").read_text().splitlines(keepends=True):
        if line.startswith(("--- ", "+++ ")):
            continue
        if line.startswith("@@"):
            if old or new:
                pairs.append(("".join(old), "".join(new)))
            old, new = [], []
        elif line.startswith("-"):
            old.append(line[1:])
        elif line.startswith("+"):
            new.append(line[1:])
        else:
            context = line[1:] if line.startswith(" ") else line
            old.append(context)
            new.append(context)
    pairs.append(("".join(old), "".join(new)))
    return pairs


def main(argv: list[str]) -> None:
    if len(argv) != 3 or argv[2] not in HUNKS_OF:
        sys.exit(f"usage: {Path(argv[0]).name} PROJECT c1|c12")
    hunks = candidate_hunks()
    assert len(hunks) == 5, f"candidates_bk.diff: {len(hunks)} hunks, not 5"
    apply(argv[1], argv[2], {KERNELS: hunks[: HUNKS_OF[argv[2]]]})


if __name__ == "__main__":
    main(sys.argv)
