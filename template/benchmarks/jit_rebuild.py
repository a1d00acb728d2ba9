"""How long the just-in-time build takes: from scratch, and after editing only a kernel source.

    python benchmarks/jit_rebuild.py [--json PATH]

Each step imports the package in a fresh process with <PACKAGE>_JIT=1 (build_config.py's sources
and flags, compiled by torch.utils.cpp_extension.load into build/jit/). The "edit" marks the first
operator's kernel file as changed (its modification time), so ninja recompiles that one file and
relinks; the last step changes nothing.
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


def timed_import() -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", f"import {build_config.PACKAGE}"],
        cwd=PROJECT,
        env={**os.environ, JIT_VARIABLE: "1"},
        check=True,
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--json", type=Path, help="also write the times here")
    args = parser.parse_args()
    cuda = torch.version.cuda is not None and torch.cuda.is_available()
    kernels = sorted(build_config.CSRC.glob("*_cuda.cu" if cuda else "*_cpu.cpp"))
    shutil.rmtree(PROJECT / "build" / "jit", ignore_errors=True)
    times = {"from_scratch_s": timed_import()}
    kernels[0].touch()
    times["after_editing_the_kernel_s"] = timed_import()
    times["unchanged_s"] = timed_import()
    record = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "device": torch.cuda.get_device_name(0) if cuda else "cpu",
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "edited": kernels[0].name,
        **{key: round(value, 1) for key, value in times.items()},
    }
    print(json.dumps(record, indent=2))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(record, indent=2) + "\n")


if __name__ == "__main__":
    main()
