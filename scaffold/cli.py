"""The `scaffold` command: what the template's maintainers and first-time users run besides copier.

scaffold demo DEST          render the example answers into DEST, build it, run its tests and its
                            quick benchmark (on the CPU where there is no GPU)
scaffold render-example     render examples/generated_gelu afresh from the template
scaffold check-example      exit 1 if examples/generated_gelu differs from a fresh rendering
scaffold gpu-bundle DEST    render the example and the other activations for a GPU machine run
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


def _render_example(args: argparse.Namespace) -> int:
    path = render.render_example()
    print(f"rendered the example answers into {path}")
    return 0


def _check_example(args: argparse.Namespace) -> int:
    problems = render.example_differences()
    if not problems:
        print(f"{render.EXAMPLE_DIR} is what the template renders")
        return 0
    print(f"{render.EXAMPLE_DIR} differs from what the template renders:")
    print("\n".join(f"  {line}" for line in problems))
    print("run `scaffold render-example` to update it")
    return 1


def _gpu_bundle(args: argparse.Namespace) -> int:
    destination = Path(args.destination).resolve()
    gpu.bundle(destination)
    print(f"rendered the GPU bundle into {destination}; on the GPU machine: bash {destination}/run.sh RESULTS")
    return 0


def _results_table(args: argparse.Namespace) -> int:
    if not args.write:
        print(results.tables())
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

    commands.add_parser("render-example", help="render examples/generated_gelu afresh").set_defaults(
        run=_render_example
    )
    commands.add_parser("check-example", help="check that examples/generated_gelu is up to date").set_defaults(
        run=_check_example
    )

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
