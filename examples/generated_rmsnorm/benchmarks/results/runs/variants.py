"""What the labs' variant scripts share (from lab AQ on; labs AL to AO each wrote it out): apply one
named variant, a list of (old, new) replacements each of which must match exactly once, to a rendered
project's csrc/row_norm/cuda.cuh.
    variants.main(EDITS, sys.argv)   # argv: [script, PROJECT, VARIANT]"""

import sys
from pathlib import Path


def main(edits: dict[str, list[tuple[str, str]]], argv: list[str]) -> None:
    if len(argv) != 3 or argv[2] not in edits:
        sys.exit(f"usage: {Path(argv[0]).name} PROJECT {'|'.join(edits)}")
    path = Path(argv[1]) / "csrc" / "row_norm" / "cuda.cuh"
    text = path.read_text()
    for old, new in edits[argv[2]]:
        if text.count(old) != 1:
            sys.exit(f"{path}: expected one match of {old.splitlines()[0].strip()!r}")
        text = text.replace(old, new)
    path.write_text(text)
    print(f"patched {path} ({argv[2]})")
