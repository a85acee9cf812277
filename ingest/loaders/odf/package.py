"""The OpenDocument package: a ZIP with content.xml, styles.xml and meta.xml, checked for what
makes it unreadable (not a ZIP, no content, encrypted, malformed XML) in the user's words."""

from __future__ import annotations

import io
import zipfile

from lxml import etree

from ...errors import LoaderError

OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
META = "{urn:oasis:names:tc:opendocument:xmlns:meta:1.0}"
DC = "{http://purl.org/dc/elements/1.1/}"
XLINK = "{http://www.w3.org/1999/xlink}"
MANIFEST = "{urn:oasis:names:tc:opendocument:xmlns:manifest:1.0}"

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False)
_KINDS = {
    "text": "text document",
    "spreadsheet": "spreadsheet",
    "presentation": "presentation",
    "drawing": "drawing",
    "chart": "chart",
    "image": "image",
}


class Package:
    """The parts of one OpenDocument file, parsed on demand."""

    def __init__(self, data: bytes):
        if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
            raise LoaderError(
                "this is an OLE compound file (a legacy .doc/.xls, not OpenDocument); "
                "save it as .odt or .ods from its application"
            )
        try:
            self._zip = zipfile.ZipFile(io.BytesIO(data))
        except zipfile.BadZipFile as exc:
            raise LoaderError(
                f"not an OpenDocument file: not a ZIP archive ({exc}); the file may be truncated or mislabelled"
            ) from exc
        self._names = set(self._zip.namelist())
        if self._encrypted():
            raise LoaderError(
                "the document is password-protected (its parts are encrypted); save it without a password to index it"
            )
        if "content.xml" not in self._names:
            raise LoaderError("the ZIP archive has no content.xml, so it is not an OpenDocument file (or is damaged)")

    def _encrypted(self) -> bool:
        """The manifest lists encryption data for some part (ODF's password protection)."""
        manifest = self.xml("META-INF/manifest.xml")
        return manifest is not None and next(manifest.iter(MANIFEST + "encryption-data"), None) is not None

    def xml(self, name: str) -> etree._Element | None:
        if name not in self._names:
            return None
        try:
            raw = self._zip.read(name)
        except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError) as exc:
            raise LoaderError(f"cannot read {name} from the ZIP archive ({exc}); the file is damaged") from exc
        try:
            return etree.fromstring(raw, _PARSER)
        except etree.XMLSyntaxError as exc:
            raise LoaderError(f"malformed XML in {name} ({exc}); the file is damaged") from exc

    def body(self) -> tuple[etree._Element, etree._Element, str]:
        """content.xml's root, its office:body's one child (office:text, office:spreadsheet...) and
        that child's kind ("text", "spreadsheet", ...)."""
        root = self.xml("content.xml")
        body = root.find(OFFICE + "body") if root is not None else None
        inner = next((el for el in body if isinstance(el.tag, str)), None) if body is not None else None
        if root is None or inner is None or not inner.tag.startswith(OFFICE):
            raise LoaderError("content.xml has no office:body with content; the file is damaged")
        return root, inner, inner.tag[len(OFFICE) :]


def kind_name(kind: str) -> str:
    """What an office:body child means to a user ("presentation")."""
    return _KINDS.get(kind, kind)


def read_meta(pkg: Package) -> dict[str, str]:
    """meta.xml's title, subject, author, language and dates, those that are filled in."""
    root = pkg.xml("meta.xml")
    meta = root.find(OFFICE + "meta") if root is not None else None
    if meta is None:
        return {}
    fields = {
        "title": DC + "title",
        "subject": DC + "subject",
        "description": DC + "description",
        "author": META + "initial-creator",
        "last_modified_by": DC + "creator",
        "created": META + "creation-date",
        "modified": DC + "date",
        "language": DC + "language",
    }
    out = {}
    for key, tag in fields.items():
        el = meta.find(tag)
        value = " ".join((el.text or "").split()) if el is not None else ""
        if value:
            out[key] = value
    keywords = [" ".join((k.text or "").split()) for k in meta.iterfind(META + "keyword")]
    if any(keywords):
        out["keywords"] = ", ".join(k for k in keywords if k)
    return out
