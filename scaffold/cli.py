"""The `scaffold` command: what the template's maintainers and first-time users run besides copier.

scaffold demo DEST          render the example answers into DEST, build it, run its tests and its
                            quick benchmark (on the CPU where there is no GPU)
scaffold render-example     render the examples (examples/generated_gelu, examples/generated_rmsnorm)
                            afresh from the template
scaffold check-example      exit 1 if an example differs from a fresh rendering
scaffold gpu-bundle DEST    render the examples, the other activations and norms and a project with an
                            operator of each family for a GPU machine run (DEST/run.sh runs them there)
scaffold results-table      print (--write: update in the READMEs) the tables of the GPU results
"""

from __future__ import annotations

import argparse
from pathlib import Path

from . import doctor, gpu, project, render, results


def _demo(args: argparse.Namespace) -> int:
    destination = Path(args.destination).resolve()
    if destination.exists() and any(destination.iterdir()):
        raise SystemExit(f"{destination} exists and is not empty; give a new folder")
    print(f"==> render: the example answers into {destination}", flush=True)
    render.render(destination, render.EXAMPLE_ANSWERS)
    project.build(destination)
    project.run_tests(destination)
    if not args.skip_benchmark:
        project.run_benchmark(destination)
    print(f"\nThe example project in {destination} is built and its tests pass.")
    return 0


def _examples(args: argparse.Namespace) -> list[str]:
    unknown = [name for name in args.examples if name not in render.EXAMPLES]
    if unknown:
        raise SystemExit(f"scaffold: no example named {', '.join(unknown)}; the examples: {', '.join(render.EXAMPLES)}")
    return args.examples or list(render.EXAMPLES)


def _render_example(args: argparse.Namespace) -> int:
    for name in _examples(args):
        path = render.render_example(render.EXAMPLES_ROOT / name)
        print(f"rendered the answers of {name} into {path}")
    return 0


def _check_example(args: argparse.Namespace) -> int:
    status = 0
    for name in _examples(args):
        example = render.EXAMPLES_ROOT / name
        problems = render.example_differences(example)
        if not problems:
            print(f"{example} is what the template renders")
            continue
        print(f"{example} differs from what the template renders:")
        print("\n".join(f"  {line}" for line in problems))
        print(f"run `scaffold render-example {name}` to update it")
        status = 1
    return status


def _gpu_bundle(args: argparse.Namespace) -> int:
    destination = Path(args.destination).resolve()
    gpu.bundle(destination)
    print(
        f"rendered the GPU bundle into {destination}; on the GPU machine: bash {destination}/run.sh RESULTS "
        "[example|rmsnorm|activations|norms|two_families|all] (PYTHON=... for another interpreter than python3)"
    )
    return 0


def _results_table(args: argparse.Namespace) -> int:
    if not args.write:
        print(results.tables())
        print()
        print(results.row_norm_tables())
        return 0
    for path in results.write():
        print(f"updated {path}")
    return 0


def _doctor(args: argparse.Namespace) -> int:
    return doctor.load().main(["--cpu"] if args.cpu else [])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scaffold", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)

    demo = commands.add_parser("demo", help="render the example into a new folder, build it, run its tests")
    demo.add_argument("destination", help="a new or empty folder")
    demo.add_argument("--skip-benchmark", action="store_true", help="do not run the quick benchmark")
    demo.set_defaults(run=_demo)

    for command, run, help_text in (
        ("render-example", _render_example, "render the examples afresh"),
        ("check-example", _check_example, "check that the examples are what the template renders"),
    ):
        parser_of = commands.add_parser(command, help=help_text)
        parser_of.add_argument(
            "examples", nargs="*", metavar="NAME", help=f"any of {', '.join(render.EXAMPLES)} (default: all)"
        )
        parser_of.set_defaults(run=run)

    bundle = commands.add_parser("gpu-bundle", help="render the projects a GPU machine run needs")
    bundle.add_argument("destination")
    bundle.set_defaults(run=_gpu_bundle)

    table = commands.add_parser("results-table", help="performance tables from the committed GPU results")
    table.add_argument("--write", action="store_true", help="update the tables in the READMEs")
    table.set_defaults(run=_results_table)

    check = commands.add_parser("doctor", help="preflight checks for building an extension on this machine")
    check.add_argument("--cpu", action="store_true", help="only what a CPU build needs")
    check.set_defaults(run=_doctor)

    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except project.StepFailed as failure:
        print(f"scaffold {args.command}: {failure}")
        return 1
