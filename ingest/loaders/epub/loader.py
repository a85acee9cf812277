"""EPUB loader: `META-INF/container.xml` names the OPF package; its metadata gives the title,
creator and language, its spine the reading order of the chapters (XHTML), each read by the HTML
loader's walk. A chapter whose text opens no heading is headed by its table-of-contents label
(the NCX), so every chapter is a section."""

from __future__ import annotations

import io
import posixpath
import zipfile
from dataclasses import replace
from urllib.parse import unquote

from lxml import etree

from ...blocks import Document, Loaded
from ...errors import LoaderError
from ..html.decoding import decode_html
from ..html.loader import read_page
from ..word.outline import Item, place, root_of

_XML = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
_OPF = "{http://www.idpf.org/2007/opf}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_NCX = "{http://www.daisy.org/z3986/2005/ncx/}"
_CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"
_CHAPTER_TYPES = frozenset({"application/xhtml+xml", "text/html"})


def load(data: bytes, document: Document) -> Loaded:
    try:
        book = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise LoaderError(f"not an EPUB: not a ZIP archive ({exc}); the file may be truncated") from exc
    names = set(book.namelist())
    if "META-INF/encryption.xml" in names and _encrypted(book):
        raise LoaderError("the EPUB's chapters are encrypted (DRM); export it without DRM to index it")
    opf_path = _rootfile(book, names)
    opf = _xml(book, opf_path)
    base = posixpath.dirname(opf_path)
    manifest = {
        item.get("id"): (posixpath.normpath(posixpath.join(base, unquote(item.get("href", "")))), item)
        for item in opf.iter(_OPF + "item")
    }
    labels = _toc_labels(book, names, manifest, opf)
    items: list[Item] = []
    warnings: list[str] = []
    for ref in opf.iter(_OPF + "itemref"):
        entry = manifest.get(ref.get("idref"))
        if entry is None or entry[1].get("media-type") not in _CHAPTER_TYPES or entry[0] not in names:
            continue
        path = entry[0]
        text, said = decode_html(book.read(path))
        warnings.extend(f"{path}: {w}" for w in said)
        chapter = read_page(text).items
        if chapter and not any(i.kind == "heading" for i in chapter) and labels.get(path):
            chapter.insert(0, Item("heading", labels[path], rank=1, level=1))
        items.extend(chapter)
    if not items:
        warnings.append("the spine names no chapter with text")
    meta = _metadata(opf)
    title, root_heading = root_of(items, lambda: meta.get("title") or document.title or document.name)
    if meta.get("title"):  # the book's own title roots the paths; its first h1 is a chapter's, unless it is the title
        first = next((i for i in items if i.kind == "heading"), None)
        title, root_heading = meta["title"], first is not None and " ".join(first.text.split()) == meta["title"]
    blocks = tuple(place(items, title, root_heading))
    return Loaded(replace(document, title=title, meta={**document.meta, **meta}), blocks, warnings=tuple(warnings))


def _rootfile(book: zipfile.ZipFile, names: set[str]) -> str:
    if "META-INF/container.xml" not in names:
        raise LoaderError("not an EPUB: no META-INF/container.xml in the archive")
    container = _xml(book, "META-INF/container.xml")
    for rootfile in container.iter(_CONTAINER + "rootfile"):
        path = rootfile.get("full-path")
        if path and path in names:
            return path
    raise LoaderError("not an EPUB: container.xml names no package (.opf) file the archive holds")


def _xml(book: zipfile.ZipFile, name: str) -> etree._Element:
    try:
        return etree.fromstring(book.read(name), _XML)
    except etree.XMLSyntaxError as exc:
        raise LoaderError(f"{name} in the EPUB is not well-formed XML: {exc}") from exc


def _encrypted(book: zipfile.ZipFile) -> bool:
    """Font obfuscation also lists files in encryption.xml; only encrypted chapters stop us."""
    root = _xml(book, "META-INF/encryption.xml")
    refs = [r.get("URI", "") for r in root.iter("{http://www.w3.org/2001/04/xmlenc#}CipherReference")]
    return any(r.lower().endswith((".html", ".xhtml", ".htm")) for r in refs)


def _metadata(opf: etree._Element) -> dict:
    out = {}
    for key, tag in (("title", "title"), ("author", "creator"), ("lang", "language")):
        el = opf.find(f".//{_DC}{tag}")
        if el is not None and (el.text or "").strip():
            out[key] = " ".join(el.text.split())  # type: ignore[union-attr]
    return out


def _toc_labels(book: zipfile.ZipFile, names: set[str], manifest: dict, opf: etree._Element) -> dict[str, str]:
    """Chapter file -> its label in the NCX table of contents (EPUB 2, and most EPUB 3 books carry one)."""
    labels: dict[str, str] = {}
    spine = opf.find(_OPF + "spine")
    ncx_id = spine.get("toc") if spine is not None else None
    if ncx_id in manifest and manifest[ncx_id][0] in names:
        ncx_path = manifest[ncx_id][0]
        ncx = _xml(book, ncx_path)
        for point in ncx.iter(_NCX + "navPoint"):
            label = point.find(f"{_NCX}navLabel/{_NCX}text")
            content = point.find(_NCX + "content")
            if label is None or content is None:
                continue
            target = posixpath.normpath(
                posixpath.join(posixpath.dirname(ncx_path), unquote(content.get("src", "").split("#")[0]))
            )
            labels.setdefault(target, " ".join((label.text or "").split()))
    return labels
