"""What the output of a document depends on in ingest's own code, as a digest per MIME type.

A version number would have to be bumped by hand at every change that alters output, and
`__version__` stayed 0.1.0 while loaders and the chunker changed. So, as for plugin cleaners, the
code itself is hashed: for a document of a given type, the source files of its loader, of the
cleaners that run on it and of the chunker, each with the ingest modules it imports (read from
the source, not from what happens to be imported). An upgrade, or an edit, then re-processes the
documents whose output can change and no others: a new spreadsheet loader leaves Markdown alone.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path

_PACKAGE = "ingest"
COMMON = ("ingest.loaders", "ingest.chunker")
"""Modules every document goes through: the loader registry (ids, uris) and the chunker."""
_IGNORED = frozenset({"ingest.errors"})
"""Imported everywhere, and its messages are no part of any chunk."""


def digest(modules: Iterable[str]) -> str:
    """A digest of the source of `modules` and every ingest module they import, transitively."""
    files: set[Path] = set()
    for name in modules:
        files |= _closure(name)
    h = hashlib.sha256()
    for path in sorted(files):
        h.update(path.relative_to(_root()).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


@cache
def _closure(module: str) -> frozenset[Path]:
    out: set[Path] = set()
    pending = [module]
    while pending:
        name = pending.pop()
        path = _file(name)
        if path is None or path in out:
            continue
        out.add(path)
        pending.extend(_imports(name, path))
    return frozenset(out)


def _imports(name: str, path: Path) -> list[str]:
    """The ingest modules `path` (module `name`) imports, anywhere in it (lazy imports too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parents = parts[: len(parts) - node.level + 1]
                base = ".".join(parents + ([base] if base else []))
            found.append(base)
            found += [f"{base}.{a.name}" for a in node.names]  # `from . import x` names a module
    return [n for n in found if (n == _PACKAGE or n.startswith(_PACKAGE + ".")) and n not in _IGNORED]


def _file(name: str) -> Path | None:
    root = _root()
    parts = name.split(".")[1:]
    candidate = root.joinpath(*parts)
    if candidate.is_dir() and (candidate / "__init__.py").is_file():
        return candidate / "__init__.py"
    module = candidate.with_suffix(".py")
    return module if module.is_file() else None


@lru_cache(maxsize=1)
def _root() -> Path:
    spec = importlib.util.find_spec(_PACKAGE)
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent
