"""The template's releases: each version in CHANGELOG.md is a tag of this repository, and copying
from the repository itself (its newest tag, as a user's `copier copy` takes it) prints no warning."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from scaffold import render

ROOT = render.TEMPLATE_ROOT


def git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def changelog_versions(text: str) -> list[str]:
    return re.findall(r"^## (\d+\.\d+\.\d+)\s*$", text, re.M)


@pytest.fixture(scope="module")
def tags() -> list[str]:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    found = git("tag", "--list", "v*").split()
    if not found:
        pytest.skip("this clone has no tags (git fetch --tags brings them)")
    return found


def test_every_changelog_release_is_a_tag_and_every_tag_a_release(tags):
    versions = changelog_versions((ROOT / "CHANGELOG.md").read_text())
    assert versions, "CHANGELOG.md names no release"
    assert sorted(f"v{version}" for version in versions) == sorted(tags)


def test_each_tag_holds_its_own_changelog_section(tags):
    for tag in tags:
        text = git("show", f"{tag}:CHANGELOG.md")
        assert changelog_versions(text)[0] == tag.removeprefix("v"), f"{tag}: its CHANGELOG's newest release"


def test_a_copy_from_this_repository_prints_no_warning(tags, tmp_path):
    """What a user runs: `copier copy --defaults <this repository> <folder>`, from a clone."""
    clone = tmp_path / "clone"
    git("clone", "--quiet", str(ROOT), str(clone), cwd=tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "copier", "copy", "--defaults", str(clone), str(tmp_path / "project")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    newest = max(tags, key=lambda tag: tuple(int(part) for part in tag.removeprefix("v").split(".")))
    answers = (tmp_path / "project" / ".copier-answers.yml").read_text()
    assert f"_commit: {newest}\n" in answers
    # Copier's own lines: the version, the files it creates, the after-copy message; no warning.
    assert f"Copying from template version {newest.removeprefix('v')}" in result.stderr
    assert "is ready in" in result.stderr
    assert "No git tags found" not in result.stderr and "Warning" not in result.stderr, result.stderr[-3000:]
