"""Performance tables for the READMEs, generated from the committed GPU results (never typed in).

The results are what `benchmarks/gpu_suite.py` wrote on a GPU machine, committed under
examples/generated_gelu/benchmarks/results/ (the example) and its activations/ folder (the same
template rendered with the other activations), and what `benchmarks/bench_<op>.py --device cpu`
wrote on the CPU (its cpu/ folder). `scaffold results-table --write` puts the tables
between the markers below in README.md; the repository's tests check that they still match the JSON.
"""

from __future__ import annotations

import datetime
import functools
import importlib.util
import json
import re
import statistics
import subprocess
import tempfile
from pathlib import Path

import yaml

from . import gpu, render

RESULTS_DIR = render.EXAMPLE_DIR / "benchmarks" / "results"
START, END = "<!-- results:start -->", "<!-- results:end -->"
# The template's own measurements belong in this repository's README; a generated project's README
# is its owner's and says how to measure (it carries no numbers of ours).
READMES = (render.TEMPLATE_ROOT / "README.md",)


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


def _shape(row: dict) -> str:
    return "x".join(map(str, row["shape"]))


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}%"


def _times(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}x"


@functools.cache
def _build_config(project: Path = render.EXAMPLE_DIR):
    """A project's build_config module, which defines how csrc/ is digested."""
    spec = importlib.util.spec_from_file_location(f"build_config_{project.name}", project / "build_config.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def current_source_digest(project: Path = render.EXAMPLE_DIR) -> str:
    """build_config.source_digest() of a project: the SHA-256 of its csrc/ as it is now."""
    return _build_config(project).source_digest()


def _digest(files: dict[str, bytes]) -> str:
    return _build_config().files_digest(files)


def _csrc_files(csrc: Path) -> dict[str, bytes]:
    return _build_config().csrc_files(csrc)


_COMMENT = re.compile(rb"//[^\n]*|/\*.*?\*/", re.S)


def _code(files: dict[str, bytes]) -> dict[str, list[bytes]]:
    """The files without comments, blank lines and trailing blanks: what the compiler sees."""
    code = {}
    for name, text in files.items():
        lines = (line.rstrip() for line in _COMMENT.sub(b"", text).splitlines())
        code[name] = [line for line in lines if line]
    return code


def _csrc_prefix(example: Path) -> str:
    """An example's csrc/ as a path of this repository."""
    return example.relative_to(render.TEMPLATE_ROOT).as_posix() + "/csrc/"


_EXAMPLE_CSRC = _csrc_prefix(render.EXAMPLE_DIR)


def _git(*args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=render.TEMPLATE_ROOT, check=True, capture_output=True).stdout


@functools.cache
def _example_csrc_at(commit: str, example: Path = render.EXAMPLE_DIR) -> dict[str, bytes]:
    prefix = _csrc_prefix(example)
    names = _git("ls-tree", "-r", "--name-only", commit, "--", prefix).decode().split()
    return {name.removeprefix(prefix): _git("show", f"{commit}:{name}") for name in names}


@functools.cache
def measured_commit(recorded: str, example: Path = render.EXAMPLE_DIR) -> str | None:
    """The commit of this repository whose `example` csrc/ has the recorded digest (None if none has,
    or this is no git checkout)."""
    if not (render.TEMPLATE_ROOT / ".git").exists():
        return None
    for commit in _git("log", "--format=%H", "--", _csrc_prefix(example)).decode().split():
        if _digest(_example_csrc_at(commit, example)) == recorded:
            return commit
    return None


_INCLUDE = re.compile(rb'^\s*#\s*include\s+"([^"]+)"', re.M)


def _compiled(files: dict[str, bytes]) -> set[str]:
    """The files of a csrc/ that its build compiles: the top-level .cpp and .cu files and every header
    they reach (_reached)."""
    return _reached(files, {name for name in files if "/" not in name and name.endswith((".cpp", ".cu"))})


# The files of csrc/ that hold only CPU loops: no CUDA translation unit includes them (checked for the
# sources compared, _cuda_reached), and CI, which has no GPU, builds and tests them on every commit. A
# GPU record of sources that differ from today's only in these (and in comments) still measured
# today's CUDA kernels; its README sentence says what differs.
CPU_LOOP_FILES = frozenset({"bias_activation/cpu.h", "row_norm/cpu.h", "core/cpu_vector.h"})


def _reached(files: dict[str, bytes], roots: set[str]) -> set[str]:
    """`roots` and every file of a csrc/ that their quoted #includes reach (csrc/ is on the include path)."""
    reached = set(roots)
    pending = list(reached)
    while pending:
        for include in _INCLUDE.findall(files[pending.pop()]):
            name = include.decode()
            if name in files and name not in reached:
                reached.add(name)
                pending.append(name)
    return reached


def _cuda_reached(files: dict[str, bytes]) -> set[str]:
    """The files of a csrc/ that its CUDA translation units (the top-level .cu files) include."""
    return _reached(files, {name for name in files if "/" not in name and name.endswith(".cu")})


def _changed_code(then: dict[str, bytes], now: dict[str, bytes]) -> set[str]:
    """The files whose code (not comments or blank lines) differs between two csrc/ trees."""
    code_then, code_now = _code(then), _code(now)
    return {name for name in code_then.keys() | code_now.keys() if code_then.get(name) != code_now.get(name)}


def _cpu_loops_only(then: dict[str, bytes], now: dict[str, bytes], changed: set[str]) -> bool:
    """Whether code `changed` between two csrc/ trees only in CPU_LOOP_FILES that no .cu file reaches."""
    return changed <= CPU_LOOP_FILES and not changed & (_cuda_reached(then) | _cuda_reached(now))


def _difference(
    then: dict[str, bytes], now: dict[str, bytes], cpu_loops: set[str], uncompiled: set[str] = frozenset()
) -> str:
    """How two csrc/ trees differ, in words: in the CPU loops `cpu_loops`, in files the build does not
    compile (`uncompiled`), in comments (any other file that differs)."""
    parts = []
    if cpu_loops:
        names = ", ".join(f"`csrc/{name}`" for name in sorted(cpu_loops))
        parts.append(f"its CPU loops ({names}, which CI builds and tests on every commit)")
    if uncompiled:
        folders = sorted({name.split("/")[0] + "/" if "/" in name else name for name in uncompiled})
        parts.append(f"files its build does not compile (in {', '.join(f'`{f}`' for f in folders)})")
    if any(then.get(name) != now.get(name) for name in (then.keys() | now.keys()) - cpu_loops - uncompiled):
        parts.append("comments")
    words = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)
    return ("only in " if not cpu_loops else "in ") + words


def sources_statement(suite: dict, project: Path = render.EXAMPLE_DIR) -> str:
    """Whether the recorded results measured the kernel sources the example has now."""
    recorded = suite["environment"].get("sources_sha256")
    current = current_source_digest(project)
    if recorded == current:
        return f"They measured the example's current kernel sources (`csrc/`, SHA-256 `{current[:12]}`)."
    commit = measured_commit(recorded, project) if recorded else None
    if commit:
        files_then, files_now = _example_csrc_at(commit, project), _csrc_files(project / "csrc")
        changed = _changed_code(files_then, files_now)
        compiled_changes = changed & (_compiled(files_then) | _compiled(files_now))
        if not compiled_changes or _cpu_loops_only(files_then, files_now, compiled_changes):
            difference = _difference(files_then, files_now, compiled_changes, changed - compiled_changes)
            return (
                f"They measured the example's kernel sources of commit {commit[:10]} (`csrc/` SHA-256 "
                f"`{recorded[:12]}`), from which its current `csrc/` (SHA-256 `{current[:12]}`) differs {difference}."
            )
    if recorded is None:
        return (
            "Their run did not record which kernel sources it measured; the example's current `csrc/` "
            f"(SHA-256 `{current[:12]}`) has not been measured."
        )
    return (
        f"They measured earlier kernel sources (`csrc/` SHA-256 `{recorded[:12]}`); the example's current "
        f"`csrc/` (SHA-256 `{current[:12]}`) has not been measured on a GPU yet."
    )


def _floor_wording(meta: dict) -> str:
    """The bytes a record counted as moved, as its method says (bias bytes from 2026-11-23's second run)."""
    if "3 x N" in meta.get("method", ""):
        return "forward 2 per element of x and 1 per element of bias, forward+backward 5 and 3"
    return "forward 2, forward+backward 5 per element"


def _source_line(suite: dict, bench: dict) -> str:
    env, meta = suite["environment"], bench["meta"]
    return (
        f"The template's example, `{meta['op']}` (bias + {meta['activation']}), "
        f"measured {env['date'][:10]} on one {env['gpu']} (torch {env['torch']}, CUDA {env['torch_cuda']}, "
        f"nvcc {env['nvcc']}) by `benchmarks/gpu_suite.py`; random inputs, buffers rotated past L2. "
        "'per call' = median time of one call as a program sees it (CUDA events, host launch time "
        "included); vs eager and vs torch.compile = their per-call time over ours; 'device' = the same "
        "ratio of device times. % = the bytes the operator must move "
        f"({_floor_wording(meta)}) at the device-to-device copy "
        "rate measured in the same run, over the device time of each implementation's kernels (calls "
        "replayed from a CUDA graph, without the host's launch time). Where the copy itself takes under "
        "20 us (timed in a batch of copies or in a CUDA graph) the host's launch time sets the "
        "pace and no percentage is shown ('host-bound'). "
        f"{sources_statement(suite)}"
    )


def _host_bound(row: dict) -> bool:
    return row.get("host_bound", row["copy_ms"] < 0.02)


def _time(ms: float | None) -> str:
    return "n/a" if ms is None else (f"{ms * 1e3:.1f} us" if ms < 1 else f"{ms:.3f} ms")


def example_table(results: Path = RESULTS_DIR) -> str:
    bench = _load(next(results.glob("bench_*.json")))
    suite = _load(results / "gpu_suite.json")
    lines = [
        _source_line(suite, bench),
        "",
        "| dtype | shape | pass | ours per call | ours % of copy | eager % | torch.compile % | vs eager | "
        "vs torch.compile | vs torch.compile, device |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in bench["results"]:
        pct = row["pct_of_copy"]
        percentages = (
            ["host-bound"] * 3 if _host_bound(row) else [_pct(pct["ours"]), _pct(pct["eager"]), _pct(pct["compile"])]
        )
        lines.append(
            f"| {row['dtype']} | {_shape(row)} | {row['pass']} | {_time(row['ms']['ours'])} | "
            + " | ".join(percentages)
            + f" | {_times(row['speedup_vs_eager'])} | {_times(row['speedup_vs_compile'])} | "
            + _times(row.get("device_speedup_vs_compile"))
            + " |"
        )
    fwd_bwd = [row for row in bench["results"] if row["pass"] == "forward+backward" and row["peak_mib"]]
    if fwd_bwd:
        row = max(fwd_bwd, key=lambda r: r["floor_bytes"])
        peak = row["peak_mib"]
        lines += [
            "",
            f"Peak memory of one forward+backward at {row['dtype']} {_shape(row)}: ours {peak['ours']:.0f} MiB, "
            f"eager {peak['eager']:.0f} MiB, torch.compile {peak['compile']:.0f} MiB. Build of the extension "
            f"for one architecture ({suite['build']['arch_list']}): {suite['build']['seconds']:.0f} s. Tests: "
            f"{suite['tests']['summary']}; compute-sanitizer: "
            + ", ".join(f"{s['tool']} {s['verdict']}" for s in suite.get("sanitizer", []))
            + ".",
        ]
    return "\n".join(lines)


def _span(values: list[float], render) -> str:
    values = [value for value in values if value is not None]
    if not values:
        return "n/a"
    low, high = min(values), max(values)
    return render(low) if render(low) == render(high) else f"{render(low)} - {render(high)}"


def activations_table(results: Path = RESULTS_DIR) -> str:
    """Each activation's range over the benchmark's shapes, from its own run of the same template."""
    folders = [results, *sorted((results / "activations").iterdir())]
    runs = []
    for folder in folders:
        env, meta = _load(folder / "gpu_suite.json")["environment"], _load(next(folder.glob("bench_*.json")))["meta"]
        machine = "one" if env["gpu_count"] == 1 else f"one of {env['gpu_count']}"
        runs.append(f"measured {meta['date'][:10]} on {machine} {env['gpu']}" + (" each" if machine == "one" else ""))
    lines = [
        "The same template rendered with each activation (" + "; ".join(dict.fromkeys(runs)) + "; gelu_tanh "
        "is the example's own run above). Ranges over the shapes above where the copy takes 20 us or more; "
        "'slowest' = the smallest per-call speed-up over all the shapes, host-bound ones included; "
        "'device' = the smallest ratio of device times where the copy takes 20 us or more:",
        "",
        "| activation | dtype | forward % of copy | forward+backward % of copy | slowest vs eager | "
        "slowest vs torch.compile | slowest vs torch.compile, device | tests |",
        "|---|---|---|---|---|---|---|---|",
    ]
    stale, unknown = [], []
    for folder in folders:
        bench = _load(next(folder.glob("bench_*.json")))
        suite = _load(folder / "gpu_suite.json")
        current = _measured_current_code(folder.name, suite["environment"]) if folder != results else True
        if current is None:
            unknown.append(bench["meta"]["activation"])
        elif not current:
            stale.append(bench["meta"]["activation"])
        rows = bench["results"]
        for dtype in dict.fromkeys(row["dtype"] for row in rows):
            mine = [row for row in rows if row["dtype"] == dtype]
            timed = [row for row in mine if not _host_bound(row)]

            def pct(pass_name: str, timed=timed) -> str:
                return _span([r["pct_of_copy"]["ours"] for r in timed if r["pass"] == pass_name], _pct)

            lines.append(
                f"| {bench['meta']['activation']} | {dtype} | {pct('forward')} | {pct('forward+backward')} | "
                f"{_times(min(r['speedup_vs_eager'] for r in mine))} | "
                f"{_times(min((r['speedup_vs_compile'] for r in mine if r['speedup_vs_compile']), default=None))} | "
                f"{_times(min((c for r in timed if (c := r.get('device_speedup_vs_compile'))), default=None))} | "
                f"{_latest_tests(folder, suite)} |"
            )
    if stale:
        verdict = (
            f"The runs of {', '.join(stale)} measured other kernel sources than the template renders now for "
            "them (the `csrc/` SHA-256 each run recorded); they have not been re-run."
        )
    elif unknown:
        verdict = (
            f"Whether the runs of {', '.join(unknown)} measured the kernel sources the template renders now "
            "could not be checked here (their `csrc/` SHA-256 differs, and this copy has no git history)."
        )
    else:
        verdict = (
            "Each run measured the kernel sources the template renders now for its activation, or "
            "sources that differ from them only in comments (the `csrc/` SHA-256 each run recorded, "
            "compared with renderings of this repository's commits)."
        )
    lines += ["", verdict]
    return "\n".join(lines)


@functools.cache
def activation_csrc(activation: str, vcs_ref: str | None = None) -> dict[str, bytes]:
    """csrc/ of the project `scaffold gpu-bundle` renders for an activation (at vcs_ref, or now)."""
    with tempfile.TemporaryDirectory() as scratch:
        project = render.render(Path(scratch) / activation, gpu.activation_answers(activation), vcs_ref=vcs_ref)
        return _csrc_files(project / "csrc")


# How many of the latest commits that changed the template's or the example's kernel sources an
# activation's run is looked up in.
_ACTIVATION_COMMITS_SEARCHED = 8


@functools.cache
def _commits_differing_only_in_comments() -> tuple[tuple[str, int], ...]:
    """The latest commits (up to _ACTIVATION_COMMITS_SEARCHED, newest first) that changed kernel
    sources and whose example csrc/ (read from git, not rendered) differs from today's only in comments,
    up to the first whose code differs, each with the time (Unix seconds) of the commit before it that
    changed kernel sources (0 where there is none), before which its sources did not exist. A run
    rendered from an older commit, or from one whose code differs, cannot have measured code that
    differs from today's only in comments (the template renders every activation's csrc/ from the same
    sources), so only these are rendered (each rendering of an older commit clones the repository: 36
    of them took the README's table test 135 s)."""
    now = _code(_csrc_files(render.EXAMPLE_DIR / "csrc"))
    log = _git(
        "log", "-n", str(_ACTIVATION_COMMITS_SEARCHED + 1), "--format=%H %ct", "--", _EXAMPLE_CSRC, "template/csrc/"
    ).decode()
    commits = [(commit, int(time)) for commit, time in (line.split() for line in log.splitlines())]
    kept = []
    for index, (commit, _) in enumerate(commits[:_ACTIVATION_COMMITS_SEARCHED]):
        if _code(_example_csrc_at(commit)) != now:
            break
        kept.append((commit, commits[index + 1][1] if index + 1 < len(commits) else 0))
    return tuple(kept)


def _measured_current_code(activation: str, environment: dict) -> bool | None:
    """Whether an activation's run measured the code the template renders now for it: the same
    sources, or the sources of one of the latest commits that changed kernel sources (rendered for
    that activation) that differ from them only in comments. None where that cannot be told: the
    sources differ and there is no git history to look the run up in."""
    recorded = environment.get("sources_sha256")
    now = activation_csrc(activation)
    if recorded == _digest(now):
        return True
    if recorded is None:
        return False
    if not (render.TEMPLATE_ROOT / ".git").exists():
        return None
    ran = datetime.datetime.fromisoformat(environment["date"]).timestamp()
    for commit, written_after in _commits_differing_only_in_comments():
        if ran < written_after:
            continue  # the run came before these sources were written
        then = activation_csrc(activation, commit)
        if _digest(then) == recorded:
            return _code(then) == _code(now)
    return False


def _latest_tests(folder: Path, suite: dict) -> str:
    """The tests of the latest GPU run of an activation's project: its suite's, or a later run of its
    tests alone (tests_call_*.json, which records its date and kernel sources)."""
    later = sorted(folder.glob("tests_call_*.json"))
    if not later:
        return suite["tests"]["summary"].split(" in ")[0]
    record = _load(later[-1])
    return f"{record['summary'].split(' in ')[0]} ({record['date']}, `{record['run']}`)"


def jit_line(results: Path = RESULTS_DIR) -> str:
    """The just-in-time rebuild times measured by benchmarks/jit_rebuild.py (GPU machine and CPU)."""
    parts = []
    for name in ("jit_rebuild.json", "jit_rebuild_cpu.json"):
        if (results / name).is_file():
            jit = _load(results / name)
            built = jit.get("built", {})
            rebuilt = (
                f" (ninja rebuilt {', '.join(f'`{name}`' for name in built['after_editing_the_kernel'])})"
                if built.get("after_editing_the_kernel")
                else ""
            )
            parts.append(
                f"{jit['device']} (torch {jit['torch']}): {jit['from_scratch_s']:.0f} s from scratch, "
                f"{jit['after_editing_the_kernel_s']:.0f} s after editing `{jit['edited']}`{rebuilt}, "
                f"{jit['unchanged_s']:.0f} s unchanged"
            )
    return "Just-in-time build (`benchmarks/jit_rebuild.py`, a fresh process each time): " + "; ".join(parts) + "."


def _isa_name(isa: str) -> str:
    """The CPU loops' instruction set as a record's meta.cpu_loops names it, in words."""
    return "any CPU (portable)" if isa == "portable" else isa.upper()


def _cpu_machine(meta: dict) -> str:
    """The machine of a CPU benchmark: its CPU, the instruction set of our loops (meta.cpu_loops,
    recorded since 2026-11-29) and of eager's kernels (meta.cpu_capability), and torch."""
    loops = f"loops compiled for {_isa_name(meta['cpu_loops'])}" if meta.get("cpu_loops") else "loops' set not recorded"
    return f"{meta['device_name']} ({loops}, eager's kernels {meta['cpu_capability']}; torch {meta['torch_version']})"


def cpu_table(results: Path = RESULTS_DIR) -> str:
    """The example's CPU loops against eager and torch.compile, per thread count (benchmarks/bench_<op>.py)."""
    bench = _load(next((results / "cpu").glob("bench_*.json")))
    meta = bench["meta"]
    script = f"benchmarks/bench_{meta['op'].split('::')[-1]}.py"
    lines = [
        f"The example's CPU loops, measured {meta['date'][:10]} on {_cpu_machine(meta)} by `{script} "
        f"--device cpu --threads {' '.join(map(str, meta['cpu_threads']))}`: median time per call; vs eager and vs "
        "torch.compile = their time over ours.",
        "",
        "| dtype | shape | threads | pass | ours | eager | torch.compile | vs eager | vs torch.compile |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in bench["results"]:
        ms = row["ms"]
        lines.append(
            f"| {row['dtype']} | {_shape(row)} | {row['threads']} | {row['pass']} | {_time(ms['ours'])} | "
            f"{_time(ms['eager'])} | {_time(ms.get('compile'))} | {_times(row['speedup_vs_eager'])} | "
            f"{_times(row.get('speedup_vs_compile'))} |"
        )
    slowest = min(bench["results"], key=lambda row: row["speedup_vs_eager"])
    lines += [
        "",
        f"Slowest against eager: {_times(slowest['speedup_vs_eager'])} ({slowest['dtype']} {_shape(slowest)}, "
        f"{slowest['pass']}, {slowest['threads']} thread{'s' if slowest['threads'] > 1 else ''}).",
    ]
    return "\n".join(lines)


def _tests_line(log: Path) -> str:
    """pytest's summary line at the end of a log, without its duration."""
    return log.read_text().strip().splitlines()[-1].split(" in ")[0]


# The reason the generated tests give where they skip for want of a second GPU.
_NEEDS_TWO_GPUS = "needs two CUDA devices"
# What the generated suites run where two GPUs are visible.
_TWO_GPU_CASES = "the tests on a second device and the training under DistributedDataParallel over two GPUs (NCCL)"


def _two_gpu_tests(log: Path, what: str) -> str:
    """What a run's tests on two GPUs included, as its log shows: `what`, or that they were skipped."""
    skipped = _NEEDS_TWO_GPUS in log.read_text() if log.is_file() else True
    return f"{what} skipped" if skipped else f"{what} included"


def other_runs(results: Path = RESULTS_DIR) -> str:
    """The project of three operators and the example on two GPUs (results/three_operators, two_gpus)."""
    three = _load(results / "three_operators" / "gpu_suite.json")
    env = three["environment"]
    sanitizers = {s["op"] for s in three["sanitizer"] if s["verdict"] == "clean"}
    two = _load(results / "two_gpus" / "gpu_suite.json")
    two_env = two["environment"]
    return (
        f"A project of three operators (the example's; `bias_silu` on the family's kernels; `bias_relu` "
        f"with CUDA kernels its owner wrote with the project's helpers) built on one {env['gpu']} "
        f"({env['date'][:10]}); compute-sanitizer's memcheck and racecheck were clean for "
        f"{len(sanitizers)} of its {len({s['op'] for s in three['sanitizer']})} operators. Its first test run: "
        f"{three['tests']['summary'].split(' in ')[0]}, both in the owner's kernel on empty tensors, "
        "caught by the family's shared tests; after the fix: "
        f"{_tests_line(results / 'three_operators' / 'tests_after_fix.log')} "
        "(`results/three_operators/`).\n\n"
        f"On a machine with {two_env['gpu_count']} {two_env['gpu']}s ({two_env['date'][:10]}) the example's "
        f"tests gave {two['tests']['summary'].split(' in ')[0]}, "
        + _two_gpu_tests(results / "two_gpus" / "tests.log", _TWO_GPU_CASES)
        + " (`results/two_gpus/`)."
        + _earlier_runs_statement([("project of three operators", env), ("run on two GPUs", two_env)], results)
    )


def _earlier_runs_statement(runs: list[tuple[str, dict]], results: Path = RESULTS_DIR) -> str:
    """Says so where these runs (what to call each, its environment) ran before the example's current
    kernels were measured (the main table's run): nothing when all ran then or later."""
    main = _load(results / "gpu_suite.json")["environment"]
    earlier = [(name, env) for name, env in runs if env["date"] < main["date"]]
    if not earlier:
        return ""
    measured = main.get("sources_sha256") or ""
    which = "Both" if len(earlier) == len(runs) == 2 else "The " + " and the ".join(name for name, _ in earlier)
    have = "has" if len(earlier) == 1 else "have"
    return (
        f" {which} ran on the template's kernels of {max(env['date'][:10] for _, env in earlier)}, before the "
        f"kernel sources the first table measured on {main['date'][:10]} (`csrc/` SHA-256 `{measured[:12]}`), "
        f"and {have} not been re-run on them."
    )


def tables(results: Path = RESULTS_DIR) -> str:
    return "\n\n".join(
        (
            example_table(results),
            jit_line(results),
            activations_table(results),
            other_runs(results),
            cpu_table(results),
        )
    )


# ---------------------------------------------------------------------------------------------
# The row normalization family: examples/generated_rmsnorm (RMSNorm) and the same template rendered
# for the family's other operators (results/norms/<operator>/: LayerNorm, RMSNorm and LayerNorm after
# a residual add), each against eager, torch.compile and Liger-Kernel where Liger has the operator.
# ---------------------------------------------------------------------------------------------
ROW_NORM_RESULTS_DIR = render.EXAMPLES_ROOT / "generated_rmsnorm" / "benchmarks" / "results"
ROW_NORM_START, ROW_NORM_END = "<!-- row-norm-results:start -->", "<!-- row-norm-results:end -->"
_NORM_TITLES = {"rms_norm": "RMSNorm", "layer_norm": "LayerNorm"}


@functools.cache
def norm_csrc(name: str, commit: str | None = None) -> dict[str, bytes]:
    """csrc/ of the project `scaffold gpu-bundle` renders for another operator of the family, now (or
    from this repository's `commit`)."""
    with tempfile.TemporaryDirectory() as scratch:
        project = render.render(Path(scratch) / name, gpu.norm_answers(name), vcs_ref=commit)
        return _csrc_files(project / "csrc")


def norm_measured_commit(name: str, recorded: str) -> str | None:
    """The commit whose rendering for operator `name` has the recorded digest, looked for where the
    family's records are rendered from (`scaffold gpu-bundle`): the commit the RMSNorm example's
    record measured. None if that rendering differs, or this is no git checkout."""
    example = _load(ROW_NORM_RESULTS_DIR / "gpu_suite.json")["environment"].get("sources_sha256")
    commit = measured_commit(example, ROW_NORM_RESULTS_DIR.parents[1]) if example else None
    return commit if commit and _digest(norm_csrc(name, commit)) == recorded else None


def norm_sources_statement(name: str, recorded: str) -> tuple[bool, str]:
    """Whether the record of operator `name` measured the kernel sources the template renders now for
    it, or sources that differ from them only in comments and in the CPU loops (CPU_LOOP_FILES); and the
    README's sentence saying which."""
    now = norm_csrc(name)
    if recorded == _digest(now):
        return (
            True,
            f"It measured the kernel sources the template renders now for it (`csrc/` SHA-256 `{recorded[:12]}`).",
        )
    commit = norm_measured_commit(name, recorded) if recorded else None
    then = norm_csrc(name, commit) if commit else {}
    changed = _changed_code(then, now) if commit else None
    if changed is not None and _cpu_loops_only(then, now, changed):
        return True, (
            f"It measured the kernel sources the template rendered for it at commit {commit[:10]} (`csrc/` SHA-256 "
            f"`{recorded[:12]}`), from which what it renders now (`{_digest(now)[:12]}`) differs "
            f"{_difference(then, now, changed)}."
        )
    return False, (
        f"It measured other kernel sources (`csrc/` SHA-256 `{recorded[:12]}`) than the template renders now for "
        f"it (`{_digest(now)[:12]}`); it has not been re-run."
    )


def _later_sanitizer(folder: Path, environment: dict) -> str:
    """compute-sanitizer's verdicts from a later run of the same sources (its sanitizer/ folder)."""
    later = folder / "sanitizer" / "gpu_suite.json"
    if not later.is_file():
        return ""
    suite = _load(later)
    same = suite["environment"].get("sources_sha256") == environment.get("sources_sha256")
    verdicts = ", ".join(f"{s['tool']} {s['verdict']}" for s in suite.get("sanitizer", []))
    when = f"{suite['environment']['date'][:10]}, `{folder.name}/sanitizer/`"
    return f"; compute-sanitizer ({when}, {'the same' if same else 'other'} kernel sources): {verdicts}"


# gpu_suite.py dates a run when it starts and benchmarks last; the benchmark's meta is dated when it
# finishes. One that finished this long after a suite's start is taken for that suite's own.
_ONE_RUN = datetime.timedelta(hours=3)


def _stamp(text: str) -> datetime.datetime | None:
    """A record's ISO date, in UTC where it names no zone; None where there is none."""
    if not text:
        return None
    stamp = datetime.datetime.fromisoformat(text)
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=datetime.timezone.utc)


def _one_run(benchmarked: str, tested: str) -> bool:
    """Whether a benchmark (its meta's date) and a suite (its environment's date) are one run. A
    benchmark without a date is not taken for the suite's."""
    benchmark, suite = _stamp(benchmarked), _stamp(tested)
    return benchmark is not None and suite is not None and datetime.timedelta(0) <= benchmark - suite <= _ONE_RUN


def _utc(stamp: datetime.datetime) -> str:
    return stamp.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _when(benchmarked: str, tested: str, machine: str = "") -> str:
    """When a norm's benchmark and its suite (tests, compute-sanitizer) ran: one date where they were
    one run, else both (a suite run again after the benchmark, or before it), and then `machine` (", on
    a machine with ...", _suite_machine's) where the suite had more than one GPU visible."""
    if _one_run(benchmarked, tested):
        return f"measured {tested[:10]}"
    benchmark, suite = _stamp(benchmarked), _stamp(tested)
    if benchmark is None:
        return f"benchmarked at a time its record does not give (tests and compute-sanitizer: {_utc(suite)}{machine})"
    order = "a later" if suite > benchmark else "an earlier"
    return f"benchmarked {_utc(benchmark)} (tests and compute-sanitizer in {order} run, started {_utc(suite)}{machine})"


def _suite_machine(environment: dict) -> str:
    """', on a machine with N GPUs' where a suite ran with more than one GPU visible."""
    count = environment.get("gpu_count", 1)
    return f", on a machine with {count} {environment['gpu']}s" if count > 1 else ""


def _when_and_where(meta: dict, environment: dict) -> str:
    """When and on what a norm's benchmark and suite ran: "measured DATE on one GPU", or, where they
    were one run on a machine of several GPUs (the benchmark on one, the suite with all visible), so
    much; or _when's two dates, the suite's machine named where it had several GPUs."""
    count, gpu = environment.get("gpu_count", 1), environment["gpu"]
    device = meta.get("device_name") or gpu
    if _one_run(meta.get("date", ""), environment["date"]) and count > 1:
        visible = "both" if count == 2 else f"all {count}"
        return (
            f"measured {environment['date'][:10]} on one of the {count} {gpu}s of a machine, the tests and "
            f"compute-sanitizer with {visible} visible"
        )
    return f"{_when(meta.get('date', ''), environment['date'], _suite_machine(environment))} on one {device}"


def _apart(meta: dict, environment: dict) -> bool:
    """Whether a norm's benchmark is another run than its suite, or measured other kernel sources."""
    measured, tested = meta.get("sources_sha256"), environment.get("sources_sha256")
    return not _one_run(meta.get("date", ""), environment["date"]) or bool(measured and measured != tested)


def _benchmarked_sources(meta: dict, environment: dict) -> str:
    """What a norm's table says of the benchmark's kernel sources where it is apart from its suite
    (whose sources the table's sentence names): the same, others, or not recorded."""
    if not _apart(meta, environment):
        return ""
    measured, tested = meta.get("sources_sha256"), environment.get("sources_sha256")
    if not measured:
        return " The benchmark's record does not say which kernel sources it measured."
    if measured != tested:
        return f" The benchmark measured other kernel sources (`csrc/` SHA-256 `{measured[:12]}`)."
    return " The benchmark measured the same kernel sources."


def _of_the_suite(sentence: str) -> str:
    """A sources sentence (sources_statement's, norm_sources_statement's) said of the suite alone."""
    sentence = re.sub(r"^(They|It) measured ", "The suite ran on ", sentence)
    return re.sub(r"^Their run ", "The suite's run ", sentence)


def _reference_note(meta: dict) -> str:
    """What a zero-centred norm's eager and torch.compile columns timed, where its record predates the
    benchmark's recording of the reference (meta["reference"], recorded since commit 96dddb9)."""
    if not meta.get("zero_centered_weight") or "reference" in meta:
        return ""
    return (
        " Its eager and torch.compile columns timed the operator's reference as rendered before commit "
        "e9743e8, which added 1 to a 16-bit weight in that dtype (the reference now computes 1 + weight "
        "and the product in float32, as the kernels do)."
    )


# A norm's benchmark run again on the same kernel sources: `reruns.json` beside its record lists those
# runs ({"why": "...", "benchmarks": [paths from the row norm results folder]}). A row whose device time
# without torch.compile came out more than RERUN_APART from its table's (the median of those runs)
# is marked in its table (†), with what the runs gave under it. A landing of a new benchmark removes
# the file (runs/landing.py): those runs measured the sources it replaces.
RERUNS_FILE = "reruns.json"
RERUN_APART = 0.02
_RERUN_SAME = ("sources_sha256", "op", "device_name")  # what a rerun must share with the table's record


def _rerun_notes(folder: Path, bench: dict, results: Path) -> tuple[set[tuple], list[str]]:
    """The rows of `bench`'s table that the runs of `folder`/reruns.json put more than RERUN_APART
    apart from it without torch.compile, and a note on each; a rerun of another operator, GPU or
    kernel sources, or without device times, is refused."""
    path = folder / RERUNS_FILE
    if not path.is_file():
        return set(), []
    spec = _load(path)
    if len(set(spec["benchmarks"])) != len(spec["benchmarks"]):
        raise ValueError(f"{path}: a benchmark is listed twice")
    runs: dict[tuple, dict[bool, list[tuple[float, float, float | None]]]] = {}
    for name in spec["benchmarks"]:
        run = _load(results / name)
        for field in _RERUN_SAME:
            if not bench["meta"].get(field) or run["meta"].get(field) != bench["meta"][field]:
                raise ValueError(f"{path}: {name} is not of the table's {field} ({bench['meta'].get(field)})")
        for row in run["results"]:
            if not (row.get("device_ms") or {}).get("ours"):
                raise ValueError(f"{path}: {name} has no device time of ours for {_shape(row)}")
            key = (row["dtype"], _shape(row), row["pass"])
            timed = runs.setdefault(key, {True: [], False: []})[bool(run["meta"].get("compile"))]
            timed.append((row["device_ms"]["ours"] * 1000, row["ms"]["ours"] * 1000, row["pct_of_copy"]["ours"]))
    marked, notes = set(), []
    for row in bench["results"]:
        key = (row["dtype"], _shape(row), row["pass"])
        alone = sorted(runs.get(key, {}).get(False, []))
        if _host_bound(row) or not alone:
            continue
        table_us = row["device_ms"]["ours"] * 1000
        if abs(statistics.median(us for us, _, _ in alone) / table_us - 1) <= RERUN_APART:
            continue
        marked.add(key)
        per_call = sorted(ms for _, ms, _ in alone)
        pcts = sorted(p for _, _, p in alone if p is not None)
        with_compile = sorted(runs[key][True])
        like_table = ", as this table's run" if bench["meta"].get("compile") else ""
        notes.append(
            f"† {key[0]} {key[1]} {key[2]}: run again on the same kernel sources without torch.compile "
            f"({len(alone)} benchmarks), ours took {alone[0][0]:.1f} to {alone[-1][0]:.1f} us of device "
            f"time"
            + (f", {pcts[0]:.1f} to {pcts[-1]:.1f}% of the copy rate" if pcts else "")
            + f", {per_call[0]:.1f} to {per_call[-1]:.1f} us per call, where this table's run has "
            f"{table_us:.1f} us of device time, {_pct(row['pct_of_copy']['ours'])} and "
            f"{row['ms']['ours'] * 1000:.1f} us per call (and its ratios to the others' device times "
            f"are taken from it)"
            + (
                f"; with torch.compile{like_table}: {with_compile[0][0]:.1f} to "
                f"{with_compile[-1][0]:.1f} us in {len(with_compile)}"
                if with_compile
                else ""
            )
            + f". {spec['why']}"
        )
    return marked, notes


def _row_norm_table(folder: Path, example: Path) -> list[str]:
    """One norm's table: the example's own run (`folder` is `example`) or another norm's project."""
    bench = _load(next(folder.glob("bench_*.json")))
    suite = _load(folder / "gpu_suite.json")
    env, meta = suite["environment"], bench["meta"]
    peers = meta.get("peers", [])
    names = ["ours", "eager", "compile", *peers]
    labels = {"ours": "ours", "eager": "eager", "compile": "torch.compile", "liger": "Liger-Kernel"}
    title = _norm_title(meta)
    title = title[0].upper() + title[1:]
    if folder == example:
        sources = sources_statement(suite, render.EXAMPLES_ROOT / "generated_rmsnorm")
    else:
        sources = norm_sources_statement(folder.name, env.get("sources_sha256") or "")[1]
    lines = [
        f"**{title}** (`{meta['op']}`, eps {meta['eps']:g}; bytes moved: {meta['floor_bytes']}), "
        f"{_when_and_where(meta, env)} "
        f"(torch {env['torch']}, CUDA {env['torch_cuda']}, nvcc {env['nvcc']}"
        f"{', Liger-Kernel ' + str(meta.get('liger_version')) if 'liger' in peers else ''}) by "
        f"`benchmarks/gpu_suite.py` (tests, compute-sanitizer) and `benchmarks/bench_{meta['op'].split('::')[-1]}.py`. "
        f"Tests: {suite['tests']['summary']}"
        + (
            "; compute-sanitizer: " + ", ".join(f"{s['tool']} {s['verdict']}" for s in suite["sanitizer"])
            if suite.get("sanitizer")
            else ""
        )
        + _later_sanitizer(folder, env)
        + f". {_of_the_suite(sources) if _apart(meta, env) else sources}".rstrip()
        + _benchmarked_sources(meta, env)
        + _reference_note(meta),
        "",
        "| dtype | shape | pass | ours per call | "
        + " | ".join(f"{labels.get(k, k)} % of copy" for k in names)
        + " | "
        + " | ".join(f"vs {labels.get(k, k)}, device" for k in names[1:])
        + " | peak MiB "
        + " / ".join(labels.get(k, k) for k in names)
        + " |",
        "|" + "---|" * (4 + 2 * len(names)),
    ]
    marked, notes = _rerun_notes(folder, bench, example)
    for row in bench["results"]:
        pct, device = row["pct_of_copy"], row.get("device_speedup") or {}
        percentages = ["host-bound"] * len(names) if _host_bound(row) else [_pct(pct.get(k)) for k in names]
        mark = " †" if (row["dtype"], _shape(row), row["pass"]) in marked else ""
        peak = row["peak_mib"]
        lines.append(
            f"| {row['dtype']} | {_shape(row)} | {row['pass']}{mark} | {_time(row['ms']['ours'])} | "
            + " | ".join(percentages)
            + " | "
            + " | ".join(_times(device.get(k)) for k in names[1:])
            + " | "
            + ("-" if not peak else " / ".join("n/a" if peak.get(k) is None else f"{peak[k]:.0f}" for k in names))
            + " |"
        )
    for note in notes:
        lines += ["", note]
    return lines


def landed_benchmarks(results: Path = ROW_NORM_RESULTS_DIR) -> dict[bytes, Path]:
    """The row-norm benchmark records the tables are made from (every bench_*.json outside runs/, the
    calls' own records), by content, each to its plot: runs/ keeps a call's plot only while its record
    is one of these (runs/README.md, "Plots")."""
    return {
        path.read_bytes(): path.with_suffix(".png")
        for path in results.rglob("bench_*.json")
        if "runs" not in path.relative_to(results).parts
    }


def row_norm_tables(results: Path = ROW_NORM_RESULTS_DIR) -> str:
    """The row normalization family's tables: the RMSNorm example, then the other norms' projects."""
    if not (results / "gpu_suite.json").is_file():
        return "The row normalization family has not been measured on a GPU yet."
    lines = [
        "The row normalization family's example, `examples/generated_rmsnorm/`, and the same template "
        "rendered for the family's other operators: RMSNorm after a residual add, LayerNorm, LayerNorm after a "
        "residual add (Liger-Kernel has no such operator), and RMSNorm with a zero-centred weight (Gemma's: rows "
        "scaled by 1 + weight; Liger-Kernel's in its gemma mode), without and with the residual add, whose eager and "
        "torch.compile columns time the operator's Python reference (`reference_<operator>` in its `ops/` module: "
        "torch has no such norm). % of copy = "
        "the bytes the operator must move (x read and y written by the forward, also grad_out and x read and "
        "grad_x written by the backward; with the residual add also residual read and residual_out written "
        "by the forward, grad_residual_out read by the backward, which reads residual_out in place of x; and "
        "each parameter and its gradient, as each table says) at the device-to-device copy rate measured in "
        "the same run, over "
        "the device time of each implementation's kernels (calls replayed from a CUDA graph). 'vs X, "
        "device' = X's device time over ours (above 1: ours is faster). 'ours per call' = median time of "
        "one call as a program sees it. Where the copy itself takes under 20 us (timed in a batch of "
        "copies or in a CUDA graph) the host's launch time sets the "
        "pace and no percentage is shown ('host-bound'). Peak memory: what one forward+backward "
        "allocates beyond its inputs.",
        "",
        *_row_norm_table(results, results),
    ]
    norms = results / "norms"
    for folder in sorted(norms.iterdir()) if norms.is_dir() else []:
        lines += ["", *_row_norm_table(folder, results)]
    two_gpus = two_gpu_runs(results)
    if two_gpus:
        lines += ["", two_gpus]
    two_families = results / "two_families" / "tests_cuda.log"
    if two_families.is_file():
        summary = two_families.read_text().strip().splitlines()[-1].split(" in ")[0]
        lines += [
            "",
            f"A project with an operator of each family ({_two_family_operators(two_families.parent)}"
            f"{_rendered_from(two_families.with_name('commit.txt'))}; `results/two_families/`) "
            f"ran its CUDA test cases on the GPU machine (`pytest -k cuda`): {summary}.",
        ]
    cpu = row_norm_cpu_table(results)
    if cpu:
        lines += ["", cpu]
    return "\n".join(lines)


def row_norm_cpu_table(results: Path = ROW_NORM_RESULTS_DIR) -> str:
    """The family's CPU loops against eager and torch.compile: each operator's benchmark on the CPU
    (results/cpu/bench_<operator>.json, and a second run in results/cpu/repeat/ where there is one)."""
    runs = [(path, "") for path in sorted((results / "cpu").glob("bench_*.json"))]
    runs += [(path, ", `repeat/`") for path in sorted((results / "cpu" / "repeat").glob("bench_*.json"))]
    if not runs:
        return ""
    metas = [_load(path)["meta"] for path, _ in runs]
    # RMSNorm, then with the residual add, then LayerNorm (and so on); a repeat after its first run.
    order = sorted(
        range(len(runs)),
        key=lambda i: (
            metas[i]["norm"] != "rms_norm",
            metas[i]["norm"],
            bool(metas[i].get("residual_add")),
            runs[i][1],
        ),
    )
    runs, metas = [runs[i] for i in order], [metas[i] for i in order]
    machine = sorted({_cpu_machine(m) for m in metas})
    dates = sorted({m["date"][:10] for m in metas})
    lines = [
        f"On the CPU (`results/cpu/`, {', '.join(dates)}, {' and '.join(machine)}): "
        "`benchmarks/bench_<operator>.py --device cpu --threads 1 2`, float32, bfloat16 and float16, the "
        "default CPU shapes, forward and forward+backward, per call; vs X = X's time over ours.",
        "",
        "| operator | vs eager | cells slower than eager | vs torch.compile | cells slower than torch.compile |",
        "|---|---|---|---|---|",
    ]
    slower = []
    for (path, label), meta in zip(runs, metas, strict=True):
        rows = _load(path)["results"]
        title = _NORM_TITLES.get(meta["norm"], meta["norm"])
        title = (f"residual add + {title}" if meta.get("residual_add") else title) + label
        cells = []
        for peer in ("eager", "compile"):
            values = [row["speedup"][peer] for row in rows if row["speedup"].get(peer) is not None]
            below = sum(value < 1 for value in values)
            cells += [f"{_times(min(values))}-{_times(max(values))}", f"{below} of {len(values)}"]
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
        slower += [
            f"{title}: {row['dtype']} {_shape(row)} {row['pass']}, {row['threads']} thread"
            f"{'s' if row['threads'] > 1 else ''}, {row['speedup']['eager']:.4f}x"
            for row in rows
            if row["speedup"].get("eager") is not None and row["speedup"]["eager"] < 1
        ]
    if slower:
        lines += ["", "Slower than eager: " + "; ".join(slower) + "."]
    return "\n".join(lines)


def _suite_title(folder: Path) -> str:
    """A norm's name as its table's title gives it, from its benchmark's record."""
    return _norm_title(_load(next(folder.glob("bench_*.json")))["meta"])


def _norm_title(meta: dict) -> str:
    """A norm's name from its benchmark's record: "residual add + RMSNorm, zero-centred weight"."""
    title = _NORM_TITLES.get(meta["norm"], meta["norm"])
    title = f"residual add + {title}" if meta.get("residual_add") else title
    return f"{title}, zero-centred weight (1 + weight)" if meta.get("zero_centered_weight") else title


def two_gpu_runs(results: Path = ROW_NORM_RESULTS_DIR) -> str:
    """The family's suites run again with two GPUs visible (each norm's two_gpus/ folder, and the
    two-family project's): what they gave, whether their two-GPU cases ran, and whether each norm's ran
    on the kernel sources of its table's suite. Empty where there are none."""
    folders = [results, *(sorted((results / "norms").iterdir()) if (results / "norms").is_dir() else [])]
    runs = []  # (its gpu_suite.json, that file, what ran, its folder, its sources where not the suite's)
    one_gpu = []  # the norms whose only suite ran with one GPU
    for folder in folders:
        # A run of its own (two_gpus/), or the norm's suite where it ran with two GPUs visible.
        record = folder / "two_gpus" / "gpu_suite.json"
        if not record.is_file():
            record = folder / "gpu_suite.json"
            if not record.is_file() or _load(record)["environment"].get("gpu_count", 1) < 2:
                if record.is_file():
                    one_gpu.append(_suite_title(folder))
                continue
        run = _load(record)
        digest = run["environment"].get("sources_sha256")
        suite = _load(folder / "gpu_suite.json")["environment"].get("sources_sha256")
        where = record.parent.relative_to(results.parent).as_posix() + "/"
        sources = "" if digest and digest == suite else f"`csrc/` SHA-256 `{(digest or 'not recorded')[:12]}`"
        runs.append((run, record, _suite_title(folder), where, sources))
    mixed = results / "two_families" / "two_gpus" / "gpu_suite.json"
    if mixed.is_file():
        runs.append(
            (
                _load(mixed),
                mixed,
                "the project with an operator of each family"
                + (
                    f" ({rendered.removeprefix(', ')})"
                    if (rendered := _rendered_from(mixed.with_name("commit.txt")))
                    else ""
                ),
                "results/two_families/two_gpus/",
                "",
            )
        )
    if not runs:
        return ""
    parts, skipped = [], False
    for run, record, what, where, sources in runs:
        log = record.with_name("tests.log")
        skips = not log.is_file() or _NEEDS_TWO_GPUS in log.read_text()
        skipped = skipped or skips
        notes = [
            note
            for note in (
                sources and f"other kernel sources than its table's suite: {sources}",
                skips and "its two-GPU cases skipped",
            )
            if note
        ]
        parts.append(f"{what} {run['tests']['summary'].split(' in ')[0]} (`{where}`{''.join('; ' + n for n in notes)})")
    first = runs[0][0]["environment"]
    gpus = sorted({f"{run['environment']['gpu_count']} {run['environment']['gpu']}s" for run, *_ in runs})
    dates = sorted({run["environment"]["date"][:10] for run, *_ in runs})
    same = all(not sources for *_, sources in runs)
    return (
        f"On a machine with {' or '.join(gpus)} ({', '.join(dates)}; torch {first['torch']}) "
        + ("each norm's suite" if not one_gpu else "the suites of the norms named here")
        + " and the two-family project's ran with both GPUs visible"
        + ("" if skipped else f", {_TWO_GPU_CASES} included")
        + (", each norm's on the kernel sources of its table's suite" if same else "")
        + ": "
        + "; ".join(parts)
        + "."
        + (f" The suites of {' and '.join(one_gpu)} ran with one GPU, without their two-GPU cases." if one_gpu else "")
    )


def _two_family_operators(folder: Path) -> str:
    """The two-family project's name and operators, from the answers files its run kept (gpu-bundle's
    run.sh copies them as copier-answers*.yml)."""
    answers = [yaml.safe_load(path.read_text()) for path in sorted(folder.glob("copier-answers*.yml"))]
    answers.sort(key=lambda a: "project_name" not in a)  # the project's own answers first
    if not answers:
        return "its answers were not kept"
    operators = []
    for a in answers:
        kind = a.get("activation") if a.get("family") == "bias_activation" else a.get("norm")
        add = " after a residual add" if a.get("residual_add") else ""
        operators.append(f"`{a.get('op_name')}`, {a.get('family')}: {kind}{add}")
    name = answers[0].get("project_name")
    return (f"project {name}: " if name else "") + "; ".join(operators)


def _rendered_from(commit_file: Path) -> str:
    """The two-family line's ', rendered from commit X', as commit.txt (scaffold gpu-bundle's) says, or
    nothing where it says nothing useful: its first line a commit, a second where the rendering had
    uncommitted changes."""
    lines = commit_file.read_text().splitlines() if commit_file.is_file() else []
    if not lines or not re.fullmatch(r"[0-9a-f]{7,40}", lines[0].strip()):
        return ""
    changes = " with uncommitted changes" if len(lines) > 1 and lines[1].strip() else ""
    return f", rendered from commit {lines[0].strip()[:10]}{changes}"


# Each generated section of a README: its markers and what goes between them.
SECTIONS = ((START, END, tables), (ROW_NORM_START, ROW_NORM_END, row_norm_tables))


def section_of(text: str, start: str = START, end: str = END) -> str:
    first, last = text.index(start) + len(start), text.index(end)
    return text[first:last].strip("\n")


def write(results: Path = RESULTS_DIR) -> list[Path]:
    """Replace the tables between the markers of each README; return the files that changed."""
    changed = []
    for readme in READMES:
        text = original = readme.read_text()
        for start, end, generate in SECTIONS:
            if start not in text:
                continue
            generated = generate(results) if generate is tables else generate()
            head, tail = text[: text.index(start) + len(start)], text[text.index(end) :]
            text = f"{head}\n{generated}\n{tail}"
        if text != original:
            readme.write_text(text)
            changed.append(readme)
    return changed
