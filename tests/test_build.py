"""Build rendered projects on this machine's torch and run their own tests and benchmark.

On a machine without a GPU (CI) this builds and tests the CPU kernels; the CUDA results are
recorded from the GPU machine in examples/generated_gelu/benchmarks/results/.
"""

import shutil

import pytest

from scaffold import project, render


@pytest.fixture(scope="module")
def built_example(tmp_path_factory):
    """A copy of the committed example, built in place."""
    example = tmp_path_factory.mktemp("built") / "generated_gelu"
    shutil.copytree(render.EXAMPLE_DIR, example)
    project.build(example)
    return example


def test_example_passes_its_tests(built_example):
    project.run_tests(built_example)


def test_example_benchmark_runs_in_quick_mode(built_example):
    project.run_benchmark(built_example, ["--quick", "--json", str(built_example / "quick.json")])
    assert (built_example / "quick.json").stat().st_size > 0


def test_another_rendering_builds_and_passes_its_tests(render_project):
    other = render_project(
        project_name="My Kernels",
        package_name="my_kernels",
        namespace="mykern",
        op_name="bias_silu",
        activation="silu",
    )
    project.build(other)
    project.run_tests(other)


def test_a_failing_step_is_reported(render_project):
    broken = render_project(activation="relu")
    (broken / "csrc" / "fused_bias_relu.cpp").write_text("this is not C++\n")
    with pytest.raises(project.StepFailed, match="build failed"):
        project.build(broken)
