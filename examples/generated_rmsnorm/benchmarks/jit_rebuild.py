"""How long the just-in-time build takes: from scratch, after editing one kernel source, unchanged.

    python benchmarks/jit_rebuild.py [--json PATH]

Each step imports the package in a fresh process with <PACKAGE>_JIT=1 (build_config.py's sources
and flags, compiled by torch.utils.cpp_extension.load into build/jit/). The edit appends a comment
to the first operator's kernel file (restored afterwards, with its modification time). For each
step it records what ninja built, from ninja's own log (build/jit/.ninja_log): after the edit, the
translation unit of that file and the link; unchanged, nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import torch

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))
import build_config  # noqa: E402

JIT_VARIABLE = f"{build_config.PACKAGE.upper()}_JIT"
# src/ first on the path: the package from this checkout, even where another copy is installed.
SEARCH_PATH = os.pathsep.join(filter(None, [str(PROJECT / "src"), os.environ.get("PYTHONPATH")]))
JIT_ENVIRONMENT = {**os.environ, JIT_VARIABLE: "1", "PYTHONPATH": SEARCH_PATH}
BUILD_DIRECTORY = PROJECT / "build" / "jit"
NINJA_LOG = BUILD_DIRECTORY / ".ninja_log"


def ninja_log_entries() -> list[str]:
    """The outputs ninja's log lists, one per build of an output (a header line is skipped)."""
    if not NINJA_LOG.is_file():
        return []
    lines = NINJA_LOG.read_text().splitlines()
    return [line.split("\t")[3] for line in lines if line and not line.startswith("#")]


def timed_import() -> tuple[float, list[str]]:
    """Seconds to import the package in a fresh process, and the outputs ninja built meanwhile."""
    before = len(ninja_log_entries())
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", f"import {build_config.PACKAGE}"],
        cwd=PROJECT,
        env=JIT_ENVIRONMENT,
        check=True,
    )
    return time.perf_counter() - started, sorted(ninja_log_entries()[before:])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--json", type=Path, help="also write the times here")
    args = parser.parse_args()
    cuda = torch.version.cuda is not None and torch.cuda.is_available()
    # The first operator's file of kernels: its .cu with CUDA, else its .cpp (the CPU loops).
    candidates = build_config.CSRC.glob("*.cu" if cuda else "*.cpp")
    kernel = sorted(path for path in candidates if path.name != "module.cpp")[0]
    shutil.rmtree(BUILD_DIRECTORY, ignore_errors=True)
    steps = {"from_scratch": timed_import()}
    original, original_times = kernel.read_text(), kernel.stat()
    try:
        kernel.write_text(original + "// an edit\n")
        steps["after_editing_the_kernel"] = timed_import()
        steps["unchanged"] = timed_import()
    finally:  # the file as it was, times included: its object (a comment apart, the same) stays valid
        kernel.write_text(original)
        os.utime(kernel, ns=(original_times.st_atime_ns, original_times.st_mtime_ns))
    record = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "device": torch.cuda.get_device_name(0) if cuda else "cpu",
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "edited": kernel.name,
        "sources_sha256": build_config.source_digest(),  # csrc/ as built, the edit undone
        **{f"{step}_s": round(seconds, 1) for step, (seconds, _) in steps.items()},
        "built": {step: outputs for step, (_, outputs) in steps.items()},
    }
    print(json.dumps(record, indent=2))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(record, indent=2) + "\n")


if __name__ == "__main__":
    main()
