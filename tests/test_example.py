"""examples/generated_gelu is exactly what the template renders with the example's answers."""

import shutil
import subprocess

import pytest
import yaml

from scaffold import render


def test_example_is_what_the_template_renders():
    assert render.example_differences() == []


def test_a_drifted_example_is_reported(tmp_path):
    example = tmp_path / "example"
    shutil.copytree(render.EXAMPLE_DIR, example)
    setup_py = example / "setup.py"
    setup_py.write_text(setup_py.read_text() + "# an edit\n")
    (example / "csrc" / "stray.cpp").write_text("// not rendered by the template\n")
    (example / "LICENSE").unlink()
    (example / "build").mkdir()  # build outputs are ignored, as the project's .gitignore says
    (example / "build" / "junk.o").write_text("")
    (example / "benchmarks" / "results" / "gpu_suite.json").write_text("{}")  # recorded, not rendered
    assert render.example_differences(example) == [
        "missing: LICENSE",
        "unexpected: csrc/stray.cpp",
        "differs: setup.py",
    ]


def test_example_answers_file_records_the_example_answers():
    answers = yaml.safe_load((render.EXAMPLE_DIR / ".copier-answers.yml").read_text())
    assert {key: answers[key] for key in render.EXAMPLE_ANSWERS} == render.EXAMPLE_ANSWERS
    assert answers["_src_path"] == "../.."
    assert answers["namespace"] == "generated_gelu"  # the default: the package name


def test_rendering_the_example_keeps_its_recorded_results(tmp_path):
    example = tmp_path / "example"
    shutil.copytree(render.EXAMPLE_DIR, example)
    recorded = example / "benchmarks" / "results" / "activations" / "relu" / "gpu_suite.json"
    assert recorded.is_file()
    (example / "setup.py").write_text("# drifted\n")
    render.render_example(example)
    assert recorded.is_file() and render.example_differences(example) == []


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed")
def test_example_as_committed_passes_its_own_ruff_steps():
    # The example's CI lints the whole folder, the Python files of its recorded GPU runs included,
    # which no rendering produces and test_renderings therefore never sees.
    for command in (["ruff", "check", "."], ["ruff", "format", "--check", "--diff", "."]):
        result = subprocess.run(command, cwd=render.EXAMPLE_DIR, capture_output=True, text=True)
        assert result.returncode == 0, f"{' '.join(command)}:\n{result.stdout}{result.stderr}"
