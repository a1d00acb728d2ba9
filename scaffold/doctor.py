"""`scaffold doctor`: the generated project's preflight checks (template/doctor.py), run here.

One implementation serves both: the template ships doctor.py to every project (setup.py runs it
before a CUDA build), and this module loads that same file from the template.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from . import render


def load() -> ModuleType:
    path = render.template_root() / "template" / "doctor.py"
    spec = importlib.util.spec_from_file_location("scaffold_template_doctor", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it executes
    spec.loader.exec_module(module)
    return module
