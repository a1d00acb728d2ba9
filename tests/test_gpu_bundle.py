"""scaffold gpu-bundle: the projects it renders for the GPU machine and the script that runs them."""

import os
import shutil
import subprocess

import yaml

from scaffold import gpu, render


def test_the_two_family_project_holds_an_operator_of_each_family_from_one_commit(tmp_path):
    project = gpu.render_two_families(tmp_path / "two_families")
    first = yaml.safe_load((project / ".copier-answers.yml").read_text())
    second = yaml.safe_load((project / gpu.TWO_FAMILIES_SECOND_ANSWERS_FILE).read_text())
    assert first["family"] == "bias_activation" and first["project_name"] == gpu.TWO_FAMILIES_PROJECT
    assert second["family"] == "row_norm" and second["residual_add"] is True
    assert first["_commit"] == second["_commit"]  # the second operator was not refused
    package = first["package_name"]
    for op in (first["op_name"], second["op_name"]):
        assert (project / "csrc" / f"{op}_cuda.cu").is_file()
        assert (project / "src" / package / "ops" / f"{op}.py").is_file()
        assert (project / "tests" / f"test_{op}.py").is_file()
    # Rendered again into the same folder, it is replaced, not added to.
    (project / "stale.txt").write_text("from an earlier bundle")
    assert not (gpu.render_two_families(project) / "stale.txt").exists()


def _run(
    tmp_path, which: str, python_status: int, python: str = "python3"
) -> tuple[subprocess.CompletedProcess, list[str]]:
    """run.sh in a bundle of empty project folders, with a `python` (python3, or PYTHON where it is
    another name) that logs its arguments."""
    bundle = tmp_path / "bundle"
    (bundle / "two_families").mkdir(parents=True)
    for answers in (".copier-answers.yml", ".copier-answers.my_norm.yml"):
        (bundle / "two_families" / answers).write_text(f"op_name: {answers}\n")
    (bundle / "commit.txt").write_text("0123456789abcdef0123456789abcdef01234567\n")
    (bundle / "run.sh").write_text(gpu.run_script())
    bin_dir, log = tmp_path / "bin", tmp_path / "calls.log"
    bin_dir.mkdir()
    stub = bin_dir / python
    stub.write_text(f'#!/usr/bin/env bash\necho "$(basename "$PWD"): $*" >> {log}\nexit {python_status}\n')
    stub.chmod(0o755)
    environment = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    environment.pop("PYTHON", None)
    if python != "python3":
        environment["PYTHON"] = str(stub)
    done = subprocess.run(
        ["bash", str(bundle / "run.sh"), str(tmp_path / "results"), which],
        env=environment,
        capture_output=True,
        text=True,
    )
    return done, log.read_text().splitlines() if log.is_file() else []


def test_run_sh_builds_the_two_family_project_and_runs_its_cuda_tests(tmp_path):
    done, calls = _run(tmp_path, "two_families", python_status=0)
    assert done.returncode == 0, done.stderr
    assert calls == [
        "two_families: setup.py build_ext --inplace",
        "two_families: -m pytest -q -p no:cacheprovider tests -k cuda",
    ]
    results = tmp_path / "results" / "two_families"
    assert (results / "commit.txt").read_text().startswith("0123456789abcdef")
    assert (results / "tests_cuda.log").is_file() and (results / "build.log").is_file()
    for answers in ("copier-answers.yml", "copier-answers.my_norm.yml"):  # visible, and what they were
        assert (results / answers).read_text() == f"op_name: .{answers}\n"


def test_run_sh_fails_where_the_two_family_build_fails(tmp_path):
    done, calls = _run(tmp_path, "two_families", python_status=1)
    assert done.returncode == 1
    assert calls == ["two_families: setup.py build_ext --inplace"]  # no tests without a build


def test_run_sh_runs_the_interpreter_that_python_names(tmp_path):
    # No python3 stub on PATH: only the interpreter PYTHON names logs the calls.
    done, calls = _run(tmp_path, "two_families", python_status=0, python="python-with-torch")
    assert done.returncode == 0, done.stderr
    assert calls == [
        "two_families: setup.py build_ext --inplace",
        "two_families: -m pytest -q -p no:cacheprovider tests -k cuda",
    ]


def _git(root, *args: str) -> str:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args]
    return subprocess.run(command, cwd=root, check=True, capture_output=True, text=True).stdout


def test_a_dirty_checkout_renders_the_two_family_project_with_its_changes_and_says_so(tmp_path, monkeypatch):
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    shutil.copy(render.TEMPLATE_ROOT / "copier.yml", checkout / "copier.yml")
    shutil.copytree(render.TEMPLATE_ROOT / "template", checkout / "template")
    _git(checkout, "init", "-q")
    _git(checkout, "add", "-A")
    _git(checkout, "commit", "-q", "-m", "template")
    monkeypatch.setattr(render, "template_root", lambda: checkout)
    head = _git(checkout, "rev-parse", "HEAD").strip()
    (checkout / "NOTES.txt").write_text("not part of what renders")
    assert gpu.template_commit() == f"{head}\n"  # a change outside copier.yml and template/
    grain = "constexpr int64_t kGrainElements = 32768;"
    cpu_loops = checkout / "template" / "csrc" / "row_norm" / "cpu.h.jinja"
    cpu_loops.write_text(cpu_loops.read_text().replace(grain, grain + "  // uncommitted"))
    assert gpu.template_commit() == f"{head}\nwith uncommitted changes\n"
    # A new file is a change too, whatever git's configuration shows of untracked files; an ignored one
    # is not (copier leaves it out of what it renders).
    (checkout / ".gitignore").write_text("template/*.ignored\n")
    _git(checkout, "add", ".gitignore")
    _git(checkout, "commit", "-q", "-m", "ignore")
    head = _git(checkout, "rev-parse", "HEAD").strip()
    (checkout / "template" / "scratch.ignored").write_text("ignored")
    _git(checkout, "config", "status.showUntrackedFiles", "no")
    assert gpu.template_commit() == f"{head}\nwith uncommitted changes\n"  # the edit above
    # copier would render each operator from a commit of its own and refuse the second.
    project = gpu.render_two_families(tmp_path / "two_families")
    assert "kGrainElements = 32768;  // uncommitted" in (project / "csrc" / "row_norm" / "cpu.h").read_text()
    assert (project / gpu.TWO_FAMILIES_SECOND_ANSWERS_FILE).is_file()
    assert not (project / "scratch.ignored").exists()
    cpu_loops.write_text(cpu_loops.read_text().replace("  // uncommitted", ""))
    assert gpu.template_commit() == f"{head}\n"  # the ignored file is not a change
    (checkout / "template" / "NEW.md").write_text("new")
    assert gpu.template_commit() == f"{head}\nwith uncommitted changes\n"  # untracked, shown though git hides it
