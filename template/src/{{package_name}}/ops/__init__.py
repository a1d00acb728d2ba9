"""One module per operator. Importing this package imports every operator module in it.

Each module registers its operator's fake and autograd implementations and defines its public
functions and layers, listed in its ``__all__``. The top-level package re-exports those names
(collected in ``public_api``), so an operator added to the project needs no edit to this file.
"""

import importlib
import pkgutil

__all__ = ["public_api"]

public_api: dict[str, object] = {}

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
    if _info.name.startswith("_"):
        continue
    _module = importlib.import_module(f"{__name__}.{_info.name}")
    for _name in _module.__all__:
        if _name in public_api:
            raise ImportError(f"{_name} is defined twice (the second time in {_module.__name__})")
        public_api[_name] = getattr(_module, _name)
