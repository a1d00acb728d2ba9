"""The template's questions: defaults render, invalid answers are refused with a useful message."""

import ast
import importlib.util
import keyword
import re
import sys

import pytest
import yaml

from scaffold import render

COPIER_YML = yaml.safe_load((render.TEMPLATE_ROOT / "copier.yml").read_text())


def _list(question: str) -> list[str]:
    return yaml.safe_load(COPIER_YML[question]["default"])


def test_keyword_lists_cover_python():
    assert set(keyword.kwlist) <= set(_list("python_keywords"))


def test_keyword_lists_cover_cpp_types_and_statements():
    assert {"int", "class", "template", "namespace", "return", "float", "double", "auto", "true"} <= set(
        _list("cpp_keywords")
    )


def _module_level_names(source: str) -> set[str]:
    """The names a module's own statements bind (imports, definitions, assignments), those under its
    if, try and for statements included, not those inside its functions and classes."""
    names: set[str] = set()

    def visit(statements):
        for node in statements:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.For)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name))
            for field in ("body", "orelse", "finalbody"):
                if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    visit(getattr(node, field, []))
            for handler in getattr(node, "handlers", []):
                visit(handler.body)

    visit(ast.parse(source).body)
    return names


def test_reserved_names_cover_what_the_package_defines(render_project):
    """An operator's module, ops/<op_name>.py, becomes an attribute of the ops package, and the
    package re-exports its function: an op_name that either __init__.py binds, or that names a folder
    of the package, would replace it (an operator named import_operator or public_api left a package
    that failed to import or to test). Every such name that could be an op_name is reserved."""
    package = render_project() / "src" / "fused_bias_activation"
    names = {path.name.removesuffix(".py") for path in package.iterdir()}
    for init in (package / "__init__.py", package / "ops" / "__init__.py"):
        names |= _module_level_names(init.read_text())
    possible = {name for name in names if re.fullmatch("[a-z][a-z0-9_]*", name)}
    assert {"import_operator", "public_api", "ops", "families"} <= possible  # the walk found them
    reserved = set(_list("reserved_names")) | set(_list("reserved_op_names")) | set(_list("python_keywords"))
    assert possible - reserved == set()


def test_every_answer_has_a_default(render_project):
    project = render_project()
    answers = yaml.safe_load((project / ".copier-answers.yml").read_text())
    assert answers["package_name"] == "fused_bias_activation"
    assert answers["op_name"] == "fused_bias_gelu_tanh"
    assert answers["namespace"] == "fused_bias_activation"
    assert (project / "csrc" / "fused_bias_gelu_tanh_cuda.cu").is_file()


def test_package_name_defaults_from_project_name(render_project):
    project = render_project(project_name="My Fancy-Kernels 2")
    assert (project / "src" / "my_fancy_kernels_2" / "__init__.py").is_file()


BAD_ANSWERS = [
    ("package_name", "My-Pkg", "package_name must be a lowercase Python identifier"),
    ("package_name", "1abc", "package_name must be a lowercase Python identifier"),
    ("package_name", "class", "package_name 'class' is a Python keyword"),
    ("package_name", "torch", "package_name 'torch' is reserved"),
    ("op_name", "int", "op_name 'int' is a Python or C\\+\\+ keyword"),
    ("op_name", "lambda", "op_name 'lambda' is a Python or C\\+\\+ keyword"),
    ("op_name", "FusedOp", "op_name must be a snake_case identifier"),
    ("op_name", "fused op", "op_name must be a snake_case identifier"),
    ("op_name", "my_op_backward", "op_name must not end in _backward"),
    ("op_name", "bias__gelu", "op_name must be a snake_case identifier"),
    ("op_name", "bias_gelu_", "op_name must be a snake_case identifier"),
    ("op_name", "time", "like the system header <time.h>"),
    ("op_name", "math", "like the system header <math.h>"),
    ("op_name", "module", "op_name 'module' is reserved"),
    ("op_name", "public_api", "op_name 'public_api' is reserved"),
    ("op_name", "import_operator", "op_name 'import_operator' is reserved"),
    ("op_name", "o" * 33, "op_name has 33 characters; at most 32"),
    ("package_name", "p" * 33, "package_name has 33 characters; at most 32"),
    ("namespace", "n" * 33, "namespace has 33 characters; at most 32"),
    ("namespace", "aten", "namespace 'aten' is a keyword or belongs to PyTorch"),
    ("namespace", "My-NS", "namespace must be a lowercase identifier"),
    ("project_name", "", "project_name must start with a letter or digit"),
    ("author_email", "nobody", "author_email must look like name@domain"),
    ("version", "one", "version must be a PEP 440 version"),
    ("cuda_arch_list", "sm_90", "cuda_arch_list must be compute capabilities separated by ';'"),
    ("copyright_year", 123, "copyright_year must be a four-digit year"),
]


@pytest.mark.parametrize(("question", "answer", "message"), BAD_ANSWERS, ids=lambda value: str(value)[:30])
def test_invalid_answer_is_refused(render_project, question, answer, message):
    with pytest.raises(ValueError, match=message):
        render_project(**{question: answer})


@pytest.mark.parametrize(("question", "answer"), [("activation", "tanh"), ("license", "GPL-9")])
def test_answer_outside_the_choices_is_refused(render_project, question, answer):
    with pytest.raises(ValueError, match="Invalid choice|not a valid choice|must be one of"):
        render_project(**{question: answer})


@pytest.mark.parametrize("op_name", ["bias_gelu2", "bias_gelu_2", "rms_norm_2d", "x_1_2"])
def test_class_names_keep_distinct_operator_names_apart(render_project, monkeypatch, op_name):
    """bias_gelu2 and bias_gelu_2 may live in one project: their C++ structs and their layers differ,
    and the layer's name (derived in Python) is the struct's (derived by copier)."""
    project = render_project(op_name=op_name)
    expected = {"bias_gelu2": "BiasGelu2", "bias_gelu_2": "BiasGelu_2", "rms_norm_2d": "RmsNorm_2d", "x_1_2": "X_1_2"}
    assert f"struct {expected[op_name]} {{" in (project / f"csrc/{op_name}.h").read_text()
    # The families package alone (the package's __init__ would load the unbuilt library), as a
    # package: its modules import each other relatively.
    families = project / "src/fused_bias_activation/families"
    spec = importlib.util.spec_from_file_location(
        "families_under_test", families / "__init__.py", submodule_search_locations=[str(families)]
    )
    package = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, package)  # dataclasses look their module up there
    spec.loader.exec_module(package)
    try:
        family = importlib.import_module("families_under_test.bias_activation")
        assert family.class_name(op_name) == expected[op_name]
    finally:
        for name in [name for name in sys.modules if name.startswith("families_under_test.")]:
            del sys.modules[name]
