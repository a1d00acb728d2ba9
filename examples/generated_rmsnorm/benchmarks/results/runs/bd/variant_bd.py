"""Lab BD's variants (issue 11) of a rendered residual-add project: `rule`, the change that lab BC's
timings chose (../bc/ entry), as the template renders it in the working tree that lab BD was prepared
in: rule.diff (`git diff -U2` of the RMSNorm example's csrc/row_norm/cuda.cuh and
tests/suites/row_norm.py against main), applied hunk by hunk, each hunk's old lines matched exactly
once; `eight`, rule with kMostItemsLoadedFirst at 8 (the float32 rows of eight vectors a thread load
all eight first: lab BC's group of four lost 1.020 to 1.116; so do the residual-add LayerNorm's 16-bit
rows of eight vectors from a vector boundary, which no timed cell takes).
    python3 variant_bd.py PROJECT rule|eight"""

import sys
from pathlib import Path


def hunks(diff: str) -> dict[str, list[tuple[str, str]]]:
    """file -> [(old text, new text)] of each hunk of a unified diff."""
    edits: dict[str, list[tuple[str, str]]] = {}
    name = None
    old: list[str] = []
    new: list[str] = []

    def close() -> None:
        if name and (old or new):
            edits.setdefault(name, []).append(("".join(old), "".join(new)))
        old.clear()
        new.clear()

    for line in diff.splitlines(keepends=True):
        if line.startswith("diff --git"):
            close()
            name = None
        elif line.startswith("+++ b/"):
            name = line[len("+++ b/") :].strip()
        elif line.startswith("--- ") or line.startswith("index "):
            continue
        elif line.startswith("@@"):
            close()
        elif line.startswith("-"):
            old.append(line[1:])
        elif line.startswith("+"):
            new.append(line[1:])
        elif line.startswith(" ") or line == "\n":
            old.append(line[1:] if line.startswith(" ") else line)
            new.append(line[1:] if line.startswith(" ") else line)
    close()
    return edits


EIGHT = ("constexpr int kMostItemsLoadedFirst = 4;", "constexpr int kMostItemsLoadedFirst = 8;")


def apply(project: str, variant: str, edits: dict[str, list[tuple[str, str]]]) -> None:
    """Each (old, new) of edits[file] in project's file, each old matched exactly once (lab BE's too)."""
    for name, pairs in edits.items():
        path = Path(project) / name
        text = path.read_text()
        for old, new in pairs:
            if text.count(old) != 1:
                sys.exit(f"{path}: expected one match of {old.splitlines()[0].strip()!r}")
            text = text.replace(old, new, 1)
        path.write_text(text)
    print(f"patched {project} ({variant})")


def main_with(argv: list[str], edits: dict[str, list[tuple[str, str]]], kernels: str) -> None:
    """A later lab's command line (from lab BQ on): `PROJECT VARIANT`, VARIANT a key of edits, whose
    (old, new) pairs apply to the project's file `kernels`."""
    if len(argv) != 3 or argv[2] not in edits:
        sys.exit(f"usage: {Path(argv[0]).name} PROJECT {'|'.join(edits)}")
    apply(argv[1], argv[2], {kernels: edits[argv[2]]})


def main(argv: list[str]) -> None:
    if len(argv) != 3 or argv[2] not in ("rule", "eight"):
        sys.exit(f"usage: {Path(argv[0]).name} PROJECT rule|eight")
    edits = hunks((Path(__file__).parent / "rule.diff").read_text())
    if argv[2] == "eight":
        edits["csrc/row_norm/cuda.cuh"].append(EIGHT)
    apply(argv[1], argv[2], edits)


if __name__ == "__main__":
    main(sys.argv)
