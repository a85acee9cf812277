"""Loaders turn one document's bytes into a `Loaded`: its `Document` and its `Block` stream.

One loader per format, picked by MIME type. A loader describes what it finds (page, position,
tracked changes, merged cells) and leaves decisions to the cleaners.
"""

from __future__ import annotations

import hashlib
import importlib
import mimetypes
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from .. import registry
from ..blocks import Document, Loaded
from ..errors import IngestError, LoaderError, UnsupportedFormat
from ..options import StrictOptions
from .options import LoaderOptions

Loader = Callable[[bytes, Document], Loaded]


@dataclass(frozen=True, slots=True)
class FormatLoader:
    """A loader as a plugin gives it (an `ingest.loaders` entry point, or `module:attr`)."""

    name: str
    load: Loader
    mime_types: tuple[str, ...]
    """The MIME types it reads; for these it takes over from a built-in once a config names it."""
    extensions: tuple[str, ...] = ()
    """Endings of local file names (".org") that mean its first MIME type."""


MARKDOWN = "text/markdown"
TEXT = "text/plain"
GOOGLE_DOC = "application/vnd.google-apps.document"
HTML = "text/html"
EML = "message/rfc822"
MBOX = "application/mbox"
EPUB = "application/epub+zip"
ODT = "application/vnd.oasis.opendocument.text"
ODS = "application/vnd.oasis.opendocument.spreadsheet"

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
    ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ".html": HTML,
    ".htm": HTML,
    ".xhtml": HTML,
    ".eml": EML,
    ".mbox": MBOX,
    ".epub": EPUB,
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".tif": "image/tiff",
    ".tiff": "image/tiff",
    ".odt": ODT,
    ".ods": ODS,
}

_LOADERS: dict[str, Loader] = {}


_PLUGGED: set[str] = set()
"""MIME types a plugin loader has taken over: built-in loader options do not apply to them."""


def register(mime_type: str, loader: Loader) -> None:
    _LOADERS[mime_type] = loader
    _PLUGGED.add(mime_type)


def use(loader: FormatLoader) -> None:
    """Read its MIME types (and local files with its extensions) with `loader`, in this process."""
    for mime_type in loader.mime_types:
        register(mime_type, loader.load)
    for ext in loader.extensions:
        _EXTENSIONS[ext.lower()] = loader.mime_types[0]


def resolve(name: str, base: Path | None = None) -> tuple[FormatLoader, str]:
    """A plugin loader by entry-point name or `module:attr` (importable from `base` too)."""
    if ":" in name:
        found = registry.import_attr(name, base)
    else:
        ep = registry.entry_point("loader", name)
        if ep is None:
            known = ", ".join(sorted(e.name for e in registry.installed("loader"))) or "none installed"
            raise LoaderError(f"unknown loader ({known}; or name one as module:attr)", subject=name)
        found = registry.load_entry_point("loader", ep)
    if not isinstance(found.obj, FormatLoader):
        raise LoaderError("is not an ingest.loaders.FormatLoader", subject=name)
    return found.obj, found.origin


def available() -> list[tuple[FormatLoader, str]]:
    """Built-in loaders, then installed ones (loaded), with where each comes from; for listing."""
    out = []
    for name, target, mime_types in BUILTIN_LOADERS:
        extensions = tuple(e for e, m in _EXTENSIONS.items() if m in mime_types)
        module, _, fn = target.partition(":")
        load = _lazy(f"{__name__}.{module}:{fn}")
        out.append((FormatLoader(name, load, mime_types, extensions), registry.BUILT_IN))
    for ep in registry.installed("loader"):
        found = registry.load_entry_point("loader", ep)
        if isinstance(found.obj, FormatLoader):
            out.append((found.obj, found.origin))
    return out


def _lazy(target: str) -> Loader:
    def load(data: bytes, document: Document) -> Loaded:
        return registry.builtin(target)(data, document)

    return load


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


def supported() -> list[str]:
    """Every MIME type a loader is registered for."""
    return list(dict.fromkeys([*_BUILTINS, *_LOADERS]))


def options_for(mime_type: str, options: LoaderOptions | None) -> StrictOptions | None:
    """The options of the built-in loader that reads `mime_type` (None: it takes none, or a plugin
    loader reads that type)."""
    if options is None or mime_type in _PLUGGED or mime_type not in _BUILTIN_NAMES:
        return None
    return options.of(_BUILTIN_NAMES[mime_type])


def load_bytes(data: bytes, document: Document, options: LoaderOptions | None = None) -> Loaded:
    """Parse `data` with the loader registered for `document.mime_type`, a built-in one with its
    part of `options` (the config's; defaults where None)."""
    loader = _loader(document.mime_type)
    if loader is None:
        raise UnsupportedFormat(f"no loader for {document.mime_type}", subject=document.uri)
    if not data.strip():  # before any parser: an empty .docx is no zip, an empty .md no text
        return Loaded(document, (), text="" if document.mime_type in _TEXT_TYPES else None, warnings=(_empty(data),))
    settings = options_for(document.mime_type, options)
    try:
        if settings is not None:
            return loader(data, document, settings)  # type: ignore[call-arg]
        return loader(data, document)
    except LoaderError as exc:
        if exc.subject is None:  # a loader's own check: name the file here, once
            raise LoaderError(str(exc), subject=document.uri) from exc
        raise
    except (IngestError, MemoryError):  # a time limit, memory: the machine's, not the format's
        raise
    except Exception as exc:  # a parser's own exception: name the file and the cause
        raise LoaderError(f"could not parse as {document.mime_type}: {exc}", subject=document.uri) from exc


_TEXT_TYPES = frozenset({MARKDOWN, TEXT, "text/csv"})
"""Formats whose `Loaded.text` is the file's text (block offsets index into it)."""


def _empty(data: bytes) -> str:
    """The warning for a file with nothing in it: every format says the same, and indexes nothing."""
    if not data:
        return "is empty (0 bytes): nothing to index"
    return f"holds only whitespace ({len(data)} bytes): nothing to index"


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
    modified = datetime.fromtimestamp(mtime, tz=UTC).isoformat(timespec="seconds")
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


# The built-ins: name, "module:function" under this package (a folder per format), MIME types. A loader's parser
# library (pymupdf, lxml, openpyxl) is imported only when a document of its type arrives.
BUILTIN_LOADERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("markdown", "markdown.loader:load", (MARKDOWN,)),
    ("plain_text", "text.loader:load", (TEXT,)),
    ("docx", "word.docx:load", (_EXTENSIONS[".docx"],)),
    ("pdf", "pdf.loader:load", (_EXTENSIONS[".pdf"],)),
    ("xlsx", "sheets.loader:load_workbook", (_EXTENSIONS[".xlsx"], _EXTENSIONS[".xlsm"])),
    ("csv", "sheets.loader:load_csv", (_EXTENSIONS[".csv"],)),
    ("pptx", "pptx.loader:load", (_EXTENSIONS[".pptx"],)),  # Google Slides arrive from Drive as a .pptx export
    ("gdoc", "word.gdoc:load", (GOOGLE_DOC,)),  # the Docs API's documents.get JSON, as the Drive source fetches it
    ("html", "html.loader:load", (HTML, "application/xhtml+xml")),
    ("eml", "mail.loader:load_message", (EML,)),
    ("mbox", "mail.loader:load_mbox", (MBOX,)),
    ("epub", "epub.loader:load", (EPUB,)),
    ("image", "images.loader:load", ("image/png", "image/jpeg", "image/tiff")),  # by OCR (the `ocr` extra)
    ("odt", "odf.loader:load", (ODT,)),
    ("ods", "odf.loader:load", (ODS,)),
)
_BUILTINS = {mime: target for _, target, mime_types in BUILTIN_LOADERS for mime in mime_types}
_BUILTIN_NAMES = {mime: name for name, _, mime_types in BUILTIN_LOADERS for mime in mime_types}
