"""Loaders turn one document's bytes into a `Loaded`: its `Document` and its `Block` stream.

One loader per format, picked by MIME type. A loader describes what it finds (page, position,
tracked changes, merged cells) and leaves decisions to the cleaners.
"""

from __future__ import annotations

import hashlib
import importlib
import mimetypes
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from ..blocks import Document, Loaded
from ..errors import IngestError, LoaderError, UnsupportedFormat

Loader = Callable[[bytes, Document], Loaded]

MARKDOWN = "text/markdown"
TEXT = "text/plain"
GOOGLE_DOC = "application/vnd.google-apps.document"

# Extensions the stdlib's table lacks or gets wrong on some systems.
_EXTENSIONS = {
    ".md": MARKDOWN,
    ".markdown": MARKDOWN,
    ".mdown": MARKDOWN,
    ".txt": TEXT,
    ".text": TEXT,
    ".rst": TEXT,
    ".pdf": "application/pdf",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".xlsm": "application/vnd.ms-excel.sheet.macroEnabled.12",
    ".csv": "text/csv",
}

_LOADERS: dict[str, Loader] = {}


def register(mime_type: str, loader: Loader) -> None:
    _LOADERS[mime_type] = loader


def _loader(mime_type: str) -> Loader | None:
    loader = _LOADERS.get(mime_type)
    if loader is None and mime_type in _BUILTINS:
        module, _, name = _BUILTINS[mime_type].partition(":")
        loader = _LOADERS[mime_type] = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    return loader


def loader_module(mime_type: str) -> str | None:
    """The module holding the loader for `mime_type` (without importing a built-in one)."""
    if mime_type in _LOADERS:
        return getattr(_LOADERS[mime_type], "__module__", None)
    if mime_type in _BUILTINS:
        return f"{__name__}.{_BUILTINS[mime_type].partition(':')[0]}"
    return None


def mime_type_of(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    return _EXTENSIONS.get(suffix) or mimetypes.guess_type(str(path))[0] or "application/octet-stream"


def supports(mime_type: str) -> bool:
    return mime_type in _LOADERS or mime_type in _BUILTINS


def load_bytes(data: bytes, document: Document) -> Loaded:
    """Parse `data` with the loader registered for `document.mime_type`."""
    loader = _loader(document.mime_type)
    if loader is None:
        raise UnsupportedFormat(f"no loader for {document.mime_type}", subject=document.uri)
    try:
        return loader(data, document)
    except LoaderError as exc:
        if exc.subject is None:  # a loader's own check: name the file here, once
            raise LoaderError(str(exc), subject=document.uri) from exc
        raise
    except (IngestError, MemoryError):  # a time limit, memory: the machine's, not the format's
        raise
    except Exception as exc:  # a parser's own exception: name the file and the cause
        raise LoaderError(f"could not parse as {document.mime_type}: {exc}", subject=document.uri) from exc


def load_file(path: str | Path) -> Loaded:
    """Load one local file; its id is its resolved path and its version its content hash."""
    path = Path(path)
    try:
        data = path.read_bytes()
        stat = path.stat()
    except OSError as exc:
        raise LoaderError(f"cannot read: {exc.strerror}", subject=str(path)) from exc
    return load_bytes(data, local_document(path, data, stat.st_mtime))


def local_document(path: Path, data: bytes, mtime: float, doc_id: str | None = None) -> Document:
    modified = datetime.fromtimestamp(mtime, tz=timezone.utc).isoformat(timespec="seconds")
    resolved = path.resolve()
    return Document(
        id=doc_id or str(resolved),
        uri=resolved.as_uri(),
        name=path.name,
        mime_type=mime_type_of(path),
        modified=modified,
        version=content_hash(data),
        title=path.stem,
    )


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# Built-ins by MIME type, as "module:function" under this package: a loader's parser library
# (pymupdf, lxml, openpyxl) is imported only when a document of its type arrives.
_BUILTINS = {
    MARKDOWN: "markdown:load",
    TEXT: "plain_text:load",
    _EXTENSIONS[".docx"]: "docx:load",
    _EXTENSIONS[".pdf"]: "pdf:load",
    _EXTENSIONS[".xlsx"]: "spreadsheet:load_workbook",
    _EXTENSIONS[".xlsm"]: "spreadsheet:load_workbook",
    _EXTENSIONS[".csv"]: "spreadsheet:load_csv",
    GOOGLE_DOC: "gdoc:load",  # the Docs API's documents.get JSON, as the Drive source fetches it
}
