"""One module per operator. Importing this package imports every operator module in it.

Each module states its operator's math with PyTorch operators and makes its function and layer
(through its family, ``families/``). Its public names are those in its ``__all__`` or, without one,
the functions and classes that belong to it (defined there or made for it) and do not start with
``_``. The top-level package re-exports them (collected in ``public_api``), so an operator added to
the project needs no edit to this file.
"""

import importlib
import pkgutil

__all__ = ["import_operator", "public_api"]

public_api: dict[str, object] = {}


def _public_names(module) -> list[str]:
    if hasattr(module, "__all__"):
        return list(module.__all__)
    public = [name for name in vars(module) if not name.startswith("_")]
    return [name for name in public if getattr(getattr(module, name), "__module__", None) == module.__name__]


def import_operator(name: str):
    """The module of operator `name`, imported. Where the compiled library lacks the operator (a module
    added, or renamed, since the library was built: torch.ops then has no such attribute), an
    ImportError says so and how to rebuild."""
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except AttributeError as error:
        # torch.ops' namespace lacks the module's own operator (a module is named like its operator).
        if "_OpNamespace" not in str(error) or f"no attribute '{name}'" not in str(error):
            raise
        raise ImportError(
            f"{__name__}.{name}: {error}: the compiled library has no such operator, most likely added "
            "since the library was built. Rebuild it in the project folder: `pip install "
            "--no-build-isolation -e .` (or a regular install without -e; with the just-in-time build, "
            "import the package again)"
        ) from error


for _info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
    if _info.name.startswith("_"):
        continue
    _module = import_operator(_info.name)
    for _name in _public_names(_module):
        if _name in public_api:
            raise ImportError(f"{_name} is defined twice (the second time in {_module.__name__})")
        public_api[_name] = getattr(_module, _name)
