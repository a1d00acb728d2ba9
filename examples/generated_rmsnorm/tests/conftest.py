"""Which copy of the package the tests import.

This checkout's src/ when it holds a build (an editable install, `python setup.py build_ext
--inplace`) or when GENERATED_RMSNORM_JIT=1 compiles csrc/ on import; otherwise the installed
package (a regular `pip install .` leaves src/ without a compiled library, and src/ is not on the
import path, so it cannot shadow the installed copy).
"""

import os
import sys
from pathlib import Path

_SOURCE = Path(__file__).resolve().parent.parent / "src"
_JIT = os.environ.get("GENERATED_RMSNORM_JIT") == "1"
_BUILT = any((_SOURCE / "generated_rmsnorm").glob("_C*"))
if _JIT or _BUILT:
    sys.path.insert(0, str(_SOURCE))
