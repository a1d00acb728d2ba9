"""Each example in examples/ is exactly what the template renders with its answers."""

import shutil
import subprocess

import pytest
import yaml

from scaffold import render

EXAMPLES = pytest.mark.parametrize("name", list(render.EXAMPLES))


@EXAMPLES
def test_example_is_what_the_template_renders(name):
    assert render.example_differences(render.EXAMPLES_ROOT / name) == []


def test_every_example_folder_has_answers():
    folders = sorted(path.name for path in render.EXAMPLES_ROOT.iterdir() if path.is_dir())
    assert folders == sorted(render.EXAMPLES)
    with pytest.raises(ValueError, match="not an example"):
        render.example_differences(render.EXAMPLES_ROOT / "no_such_example")


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
    assert render.example_differences(example, render.EXAMPLE_ANSWERS) == [
        "missing: LICENSE",
        "unexpected: csrc/stray.cpp",
        "differs: setup.py",
    ]


@EXAMPLES
def test_example_answers_file_records_the_example_answers(name):
    expected = render.EXAMPLES[name]
    answers = yaml.safe_load((render.EXAMPLES_ROOT / name / ".copier-answers.yml").read_text())
    assert {key: answers[key] for key in expected} == expected
    assert answers["_src_path"] == "../.."
    assert answers["namespace"] == expected["package_name"]  # the default: the package name


def test_rendering_the_example_keeps_its_recorded_results(tmp_path):
    example = tmp_path / "example"
    shutil.copytree(render.EXAMPLE_DIR, example)
    recorded = example / "benchmarks" / "results" / "activations" / "relu" / "gpu_suite.json"
    assert recorded.is_file()
    (example / "setup.py").write_text("# drifted\n")
    render.render_example(example, render.EXAMPLE_ANSWERS)
    assert recorded.is_file() and render.example_differences(example, render.EXAMPLE_ANSWERS) == []


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed")
@EXAMPLES
def test_example_as_committed_passes_its_own_ruff_steps(name):
    # The example's CI lints the whole folder, the Python files of its recorded GPU runs included,
    # which no rendering produces and test_renderings therefore never sees.
    for command in (["ruff", "check", "."], ["ruff", "format", "--check", "--diff", "."]):
        result = subprocess.run(command, cwd=render.EXAMPLES_ROOT / name, capture_output=True, text=True)
        assert result.returncode == 0, f"{' '.join(command)}:\n{result.stdout}{result.stderr}"
