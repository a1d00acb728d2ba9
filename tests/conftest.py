"""Shared helpers of the repository's tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scaffold import render


@pytest.fixture
def render_project(tmp_path: Path) -> Callable[..., Path]:
    """Render the template with the given answers into a fresh folder under tmp_path."""
    count = 0

    def _render(**answers: Any) -> Path:
        nonlocal count
        count += 1
        return render.render(tmp_path / f"project{count}", answers)

    return _render
