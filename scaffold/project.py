"""Building a rendered project and running its tests and benchmark, as its README tells its owner."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import yaml


class StepFailed(RuntimeError):
    """A build, test or benchmark step of a rendered project failed."""


def answers_of(project: Path) -> dict:
    """The copier answers a project was rendered with."""
    return yaml.safe_load((project / ".copier-answers.yml").read_text())


def _run(step: str, command: Sequence[str], project: Path, env: Mapping[str, str] | None = None) -> None:
    print(f"\n==> {step}: {' '.join(command)}  (in {project})", flush=True)
    started = time.perf_counter()
    result = subprocess.run(command, cwd=project, env={**os.environ, **(env or {})})
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise StepFailed(f"{step} failed (exit code {result.returncode}) after {elapsed:.1f} s: {' '.join(command)}")
    print(f"==> {step}: done in {elapsed:.1f} s", flush=True)


def build(project: Path, env: Mapping[str, str] | None = None) -> None:
    """Compile the extension in place (CUDA kernels too where a CUDA build of torch and nvcc exist)."""
    _run("build", [sys.executable, "setup.py", "build_ext", "--inplace"], project, env)


def run_tests(project: Path, pytest_args: Sequence[str] = (), env: Mapping[str, str] | None = None) -> None:
    _run("tests", [sys.executable, "-m", "pytest", "-q", *pytest_args], project, env)


def run_benchmark(project: Path, benchmark_args: Sequence[str] = ("--quick",)) -> None:
    op_name = answers_of(project)["op_name"]
    _run("benchmark", [sys.executable, f"benchmarks/bench_{op_name}.py", *benchmark_args], project)
