"""pyproject's requirements are what the package imports: every library `ingest/` imports is
declared (a runtime dependency, or an extra for an optional part), and every runtime dependency is
used. A library that arrives only as another one's dependency can vanish with that one's next release."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from functools import cache
from importlib.metadata import packages_distributions

from tests.paths import ROOT


def _name(requirement: str) -> str:
    """The normalised distribution name of a requirement line ("PyYAML>=6" -> "pyyaml")."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)).lower()


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _used_modules() -> set[str]:
    """Top-level modules imported anywhere in ingest/ (lazily too), or opened as package data."""
    found: set[str] = set()
    for path in (ROOT / "ingest").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
            elif (  # importlib.resources.files("pkg"): the package's data, read in place
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", None)) == "files"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value.split(".")[0])
    return {m for m in found if m not in sys.stdlib_module_names and m != "ingest"}


@cache
def _installed() -> dict[str, list[str]]:
    return packages_distributions()  # walks every installed distribution: once


def _distributions(module: str) -> set[str]:
    # An optional part's library may be absent (the `test` extra has no torch): then its module name
    # is the only evidence, and the distributions named after their module (sentence_transformers) match it.
    return {_name(d) for d in _installed().get(module, ())} or {_name(module)}


def test_every_imported_library_is_declared():
    project = _project()
    declared = {_name(r) for r in project["dependencies"]}
    declared |= {_name(r) for extra in project["optional-dependencies"].values() for r in extra}
    undeclared = {m: _distributions(m) for m in _used_modules() if not _distributions(m) & declared}
    assert not undeclared, f"imported by ingest/ but not in pyproject.toml: {undeclared}"


def test_lxml_is_a_runtime_dependency():
    # The .docx loader parses the package XML with lxml: a lean install must bring it.
    assert "lxml" in {_name(r) for r in _project()["dependencies"]}


def test_every_runtime_dependency_is_used():
    provided = set().union(*(_distributions(m) for m in _used_modules()))
    unused = {_name(r) for r in _project()["dependencies"]} - provided
    assert not unused, f"declared in pyproject.toml but never imported by ingest/: {unused}"
