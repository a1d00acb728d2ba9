"""Performance tables for the READMEs, generated from the committed GPU results (never typed in).

The results are what `benchmarks/gpu_suite.py` wrote on a GPU machine, committed under
examples/generated_gelu/benchmarks/results/ (the example) and its activations/ folder (the same
template rendered with the other activations). `scaffold results-table --write` puts the tables
between the markers below in README.md and template/README.md.jinja; the repository's tests check
that they still match the JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import render

RESULTS_DIR = render.EXAMPLE_DIR / "benchmarks" / "results"
START, END = "<!-- results:start -->", "<!-- results:end -->"
READMES = (render.TEMPLATE_ROOT / "README.md", render.TEMPLATE_ROOT / "template" / "README.md.jinja")
HEADLINE_SHAPES = ("8192x8192", "32768x4096")


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


def _shape(row: dict) -> str:
    return "x".join(map(str, row["shape"]))


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}%"


def _times(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}x"


def _source_line(suite: dict, bench: dict) -> str:
    env, meta = suite["environment"], bench["meta"]
    return (
        f"The template's example, `{meta['op']}` (bias + {meta['activation']}), "
        f"measured {env['date'][:10]} on one {env['gpu']} (torch {env['torch']}, CUDA {env['torch_cuda']}, "
        f"nvcc {env['nvcc']}) by `benchmarks/gpu_suite.py`; median of CUDA-event timings, random inputs, "
        f"buffers rotated past L2. % = the bytes the operator must move (forward 2, forward+backward 5 "
        f"per element) at the device-to-device copy rate measured in the same run, over the measured time."
    )


def example_table(results: Path = RESULTS_DIR) -> str:
    bench = _load(next(results.glob("bench_*.json")))
    suite = _load(results / "gpu_suite.json")
    lines = [
        _source_line(suite, bench),
        "",
        "| dtype | shape | pass | ours ms | ours % of copy | eager % | torch.compile % | vs eager | vs torch.compile |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in bench["results"]:
        lines.append(
            f"| {row['dtype']} | {_shape(row)} | {row['pass']} | {row['ms']['ours']:.4f} | "
            f"{_pct(row['pct_of_copy']['ours'])} | {_pct(row['pct_of_copy']['eager'])} | "
            f"{_pct(row['pct_of_copy']['compile'])} | {_times(row['speedup_vs_eager'])} | "
            f"{_times(row['speedup_vs_compile'])} |"
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


def activations_table(results: Path = RESULTS_DIR) -> str:
    lines = [
        "The same template rendered with the other activations (same GPU and run; the large shapes):",
        "",
        "| activation | dtype | shape | forward % of copy | forward+backward % of copy | "
        "forward+backward vs torch.compile | tests |",
        "|---|---|---|---|---|---|---|",
    ]
    for folder in sorted((results / "activations").iterdir()):
        bench = _load(next(folder.glob("bench_*.json")))
        suite = _load(folder / "gpu_suite.json")
        rows = {(r["dtype"], _shape(r), r["pass"]): r for r in bench["results"]}
        for dtype, shape in sorted({(dtype, shape) for dtype, shape, _ in rows}):
            if shape not in HEADLINE_SHAPES:
                continue
            forward, both = rows[(dtype, shape, "forward")], rows[(dtype, shape, "forward+backward")]
            lines.append(
                f"| {bench['meta']['activation']} | {dtype} | {shape} | {_pct(forward['pct_of_copy']['ours'])} | "
                f"{_pct(both['pct_of_copy']['ours'])} | {_times(both['speedup_vs_compile'])} | "
                f"{suite['tests']['summary'].split(' in ')[0]} |"
            )
    return "\n".join(lines)


def jit_line(results: Path = RESULTS_DIR) -> str:
    """The just-in-time rebuild times measured by benchmarks/jit_rebuild.py (GPU machine and CPU)."""
    parts = []
    for name in ("jit_rebuild.json", "jit_rebuild_cpu.json"):
        if (results / name).is_file():
            jit = _load(results / name)
            parts.append(
                f"{jit['device']} (torch {jit['torch']}): {jit['from_scratch_s']:.0f} s from scratch, "
                f"{jit['after_editing_the_kernel_s']:.0f} s after editing `{jit['edited']}`, "
                f"{jit['unchanged_s']:.0f} s unchanged"
            )
    return "Just-in-time build (`benchmarks/jit_rebuild.py`, a fresh process each time): " + "; ".join(parts) + "."


def tables(results: Path = RESULTS_DIR) -> str:
    return f"{example_table(results)}\n\n{jit_line(results)}\n\n{activations_table(results)}"


def section_of(text: str) -> str:
    start, end = text.index(START) + len(START), text.index(END)
    return text[start:end].strip("\n")


def write(results: Path = RESULTS_DIR) -> list[Path]:
    """Replace the tables between the markers of each README; return the files that changed."""
    changed = []
    generated = tables(results)
    for readme in READMES:
        text = readme.read_text()
        head, tail = text[: text.index(START) + len(START)], text[text.index(END) :]
        updated = f"{head}\n{generated}\n{tail}"
        if updated != text:
            readme.write_text(updated)
            changed.append(readme)
    return changed
