"""Everything this project claims about CUDA, checked on a GPU machine in one run.

    python benchmarks/gpu_suite.py [--out benchmarks/results] [--skip-sanitizer] [--bench-args ...]

1. builds the extension with the CUDA kernels (FORCE_CUDA=1) and times the build;
2. runs the full test suite, which now includes the CUDA cases (CUDA graphs, a non-default stream,
   a second device where there is one);
3. runs compute-sanitizer memcheck and racecheck on each operator's small workload
   (benchmarks/sanitize_<op>.py);
4. runs each operator's benchmark over its dtypes and shapes (JSON), and plots achieved GB/s
   against size for the operator, PyTorch eager, torch.compile, the family's peers and a
   device-to-device copy (PNG);
5. times the just-in-time build from scratch and after editing a kernel (benchmarks/jit_rebuild.py);
6. writes gpu_suite.json: date, GPU, torch and CUDA versions, the SHA-256 of the sources in csrc/,
   build time, test summary, sanitizer verdicts, and the paths of the benchmark results.

Exits non-zero if the build, a test or a sanitizer check fails.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import torch

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))
import build_config  # noqa: E402

# Every operator of the project has benchmarks/bench_<op>.py and benchmarks/sanitize_<op>.py.
OPS = sorted(path.stem.removeprefix("bench_") for path in (PROJECT / "benchmarks").glob("bench_*.py"))


def run(
    step: str, command: list[str], log: Path, env: dict[str, str] | None = None
) -> tuple[int, float, str]:
    """Run a command in the project, tee its output to `log`, return (exit code, seconds, output)."""
    print(f"\n==> {step}: {' '.join(command)}", flush=True)
    started = time.perf_counter()
    result = subprocess.run(
        command,
        cwd=PROJECT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    seconds = time.perf_counter() - started
    log.write_text(result.stdout)
    print(result.stdout[-4000:], flush=True)
    print(f"==> {step}: exit code {result.returncode} after {seconds:.1f} s", flush=True)
    return result.returncode, seconds, result.stdout


def environment() -> dict[str, object]:
    nvcc = shutil.which("nvcc")
    nvcc_version = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout if nvcc else ""
    release = re.search(r"release (\S+),", nvcc_version)
    cxx = os.environ.get("CXX") or sysconfig.get_config_var("CXX") or "c++"
    cxx_version = subprocess.run([*cxx.split(), "--version"], capture_output=True, text=True).stdout
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "gpu": torch.cuda.get_device_name(0),
        "gpu_count": torch.cuda.device_count(),
        "compute_capability": ".".join(map(str, torch.cuda.get_device_capability(0))),
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "nvcc": release.group(1) if release else None,
        "host_compiler": f"{cxx}: {cxx_version.splitlines()[0] if cxx_version else 'not found'}",
        "python": sys.version.split()[0],
        # Which kernels were measured: results whose digest differs from build_config.source_digest()
        # of a checkout were measured on other sources.
        "sources_sha256": build_config.source_digest(),
    }


def sanitize(op: str, tool: str, out: Path) -> dict[str, object]:
    sanitizer = shutil.which("compute-sanitizer")
    if sanitizer is None:
        return {"op": op, "tool": tool, "verdict": "not run: compute-sanitizer is not on PATH"}
    code, seconds, output = run(
        f"compute-sanitizer {tool} ({op})",
        [sanitizer, "--tool", tool, "--error-exitcode", "1", sys.executable, f"benchmarks/sanitize_{op}.py"],
        out / f"sanitizer_{tool}_{op}.log" if len(OPS) > 1 else out / f"sanitizer_{tool}.log",
        # The package may be built in place rather than installed: put src/ on the path.
        env={
            "PYTORCH_NO_CUDA_MEMORY_CACHING": "1",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT / "src"), os.environ.get("PYTHONPATH")])),
        },
    )
    summary = re.findall(r"ERROR SUMMARY: .*|RACECHECK SUMMARY: .*", output)
    return {
        "op": op,
        "tool": tool,
        "verdict": sanitizer_verdict(code, output),
        "summary": summary[-1] if summary else None,
        "seconds": round(seconds, 1),
    }


def sanitizer_verdict(code: int, output: str) -> str:
    """The verdict "clean" where compute-sanitizer and the workload exited 0; "errors found" where its
    summary counts errors (memcheck's, among them failed CUDA calls such as an allocation out of
    memory, or racecheck's among its hazards); otherwise the workload failed with none found (a crash
    as the process ended): not clean, and said as it was."""
    if code == 0:
        return "clean"
    counts = [int(n) for n in re.findall(r"ERROR SUMMARY: (\d+) error", output)]
    racecheck = r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?"
    counts += [int(n) for n in re.findall(racecheck, output)]
    if any(counts):
        return "errors found"
    if counts:
        return f"0 errors, but the workload failed (exit {code})"
    return f"failed (exit {code}) before its summary"


def plot(op: str, results_json: Path, png: Path) -> None:
    """Achieved GB/s (floor bytes / time) against the bytes moved, one panel per pass and dtype."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = json.loads(results_json.read_text())
    rows = data["results"]
    passes = sorted({row["pass"] for row in rows}, reverse=True)
    dtypes = sorted({row["dtype"] for row in rows})
    fig, axes = plt.subplots(
        len(passes), len(dtypes), figsize=(5 * len(dtypes), 4 * len(passes)), squeeze=False, sharey=True
    )
    for i, pass_name in enumerate(passes):
        for j, dtype in enumerate(dtypes):
            ax = axes[i][j]
            points = sorted(
                (row for row in rows if row["pass"] == pass_name and row["dtype"] == dtype),
                key=lambda row: row["floor_bytes"],
            )
            sizes = [row["floor_bytes"] / 1e6 for row in points]
            # ours, eager, compile, then the family's peers (e.g. liger), then the copy's limit
            names = list(dict.fromkeys(name for row in points for name in row["gbps"]))
            styles = {"ours": "o-", "eager": "s--", "compile": "^--", "copy": "k:"}
            for impl in [*names, "copy"]:
                style = styles.get(impl, "d-.")
                values = [row["copy_gbps"] if impl == "copy" else row["gbps"].get(impl) for row in points]
                if any(value is not None for value in values):
                    ax.plot(sizes, values, style, label="copy (limit)" if impl == "copy" else impl)
            ax.set_xscale("log")
            ax.set_title(f"{pass_name}, {dtype}")
            ax.set_xlabel("bytes the operator must move (MB)")
            ax.set_ylabel("achieved GB/s")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend()
    meta = data["meta"]
    versions = f"torch {meta['torch_version']}, CUDA {meta['cuda_version']}"
    fig.suptitle(f"{op} on {meta['device_name']} ({versions}, {meta['date']})")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"wrote {png}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=PROJECT / "benchmarks" / "results")
    parser.add_argument("--skip-build", action="store_true", help="use the extension built in place")
    parser.add_argument("--skip-sanitizer", action="store_true")
    parser.add_argument("--skip-benchmark", action="store_true")
    parser.add_argument("--skip-jit", action="store_true", help="skip timing the just-in-time build")
    parser.add_argument("--bench-args", nargs=argparse.REMAINDER, default=[], help="passed to the benchmark")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("gpu_suite: no CUDA device is visible; this script is for a GPU machine")
        return 2
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    record: dict[str, object] = {"environment": environment()}
    failed = []

    if not args.skip_build:
        shutil.rmtree(PROJECT / "build", ignore_errors=True)
        code, seconds, _ = run(
            "build",
            [sys.executable, "setup.py", "build_ext", "--inplace"],
            out / "build.log",
            env={"FORCE_CUDA": "1"},
        )
        record["build"] = {
            "seconds": round(seconds, 1),
            "arch_list": os.environ.get("TORCH_CUDA_ARCH_LIST", "visible GPUs"),
            "ok": code == 0,
        }
        if code != 0:
            (out / "gpu_suite.json").write_text(json.dumps(record, indent=2) + "\n")
            return 1

    code, seconds, output = run(
        "tests", [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], out / "tests.log"
    )
    summary = re.findall(r"^=*\s*(\d+ (?:passed|failed).*?)\s*=*$", output, flags=re.MULTILINE)
    record["tests"] = {
        "summary": summary[-1] if summary else None,
        "ok": code == 0,
        "seconds": round(seconds, 1),
    }
    if code != 0:
        failed.append("tests")

    if not args.skip_sanitizer:
        record["sanitizer"] = [sanitize(op, tool, out) for op in OPS for tool in ("memcheck", "racecheck")]
        failed += [f"sanitizer {s['tool']} {s['op']}" for s in record["sanitizer"] if s["verdict"] != "clean"]

    if not args.skip_benchmark:
        record["benchmark"] = []
        for op in OPS:
            results_json = out / f"bench_{op}.json"
            code, seconds, _ = run(
                f"benchmark ({op})",
                [sys.executable, f"benchmarks/bench_{op}.py", "--json", str(results_json), *args.bench_args],
                out / ("benchmark.log" if len(OPS) == 1 else f"benchmark_{op}.log"),
            )
            entry = {"op": op, "json": results_json.name, "ok": code == 0, "seconds": round(seconds, 1)}
            if code == 0:
                png = out / f"bench_{op}.png"
                plot(op, results_json, png)
                entry["png"] = png.name
            else:
                failed.append(f"benchmark {op}")
            record["benchmark"].append(entry)

    if not args.skip_jit:
        jit_json = out / "jit_rebuild.json"
        code, _, _ = run(
            "just-in-time build",
            [sys.executable, "benchmarks/jit_rebuild.py", "--json", str(jit_json)],
            out / "jit.log",
        )
        record["jit"] = json.loads(jit_json.read_text()) if code == 0 else {"ok": False}
        if code != 0:
            failed.append("jit")

    record["failed"] = failed
    (out / "gpu_suite.json").write_text(json.dumps(record, indent=2) + "\n")
    print(json.dumps(record, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
