"""A .docx package written by hand from WordprocessingML: a body, styles and numbering, for tests
that need one revision exactly as Word writes it."""

from __future__ import annotations

import io
import zipfile

from ingest.blocks import Document
from ingest.loaders import load_bytes
from ingest.loaders.word.docx import MIME

NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
BY = 'w:id="{id}" w:author="Ann" w:date="2026-03-01T10:00:00Z"'

STYLES = f"""<w:styles {NS}>
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/>
<w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/>
<w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
</w:styles>"""

# numId 1: "1.", "a)" below it.
NUMBERING = f"""<w:numbering {NS}>
<w:abstractNum w:abstractNumId="0">
<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/></w:lvl>
</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
</w:numbering>"""

_TYPES = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml"
 ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>"""
_ROOT_RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
 Target="word/document.xml"/></Relationships>"""
_REL = '<Relationship Id="{id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}" Target="{target}"/>'


def docx(body: str, comments: str = "") -> bytes:
    """The package of a document whose `w:body` holds `body` (with the styles and numbering above)."""
    parts = {"styles": ("styles.xml", STYLES), "numbering": ("numbering.xml", NUMBERING)}
    if comments:
        parts["comments"] = ("comments.xml", f"<w:comments {NS}>{comments}</w:comments>")
    rels = "".join(_REL.format(id=f"r{k}", kind=kind, target=t) for k, (kind, (t, _)) in enumerate(parts.items()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("[Content_Types].xml", _TYPES)
        z.writestr("_rels/.rels", _ROOT_RELS)
        z.writestr("word/document.xml", f"<w:document {NS}><w:body>{body}</w:body></w:document>")
        z.writestr(
            "word/_rels/document.xml.rels",
            f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{rels}</Relationships>',
        )
        for name, xml in parts.values():
            z.writestr(f"word/{name}", xml)
    return out.getvalue()


def load_docx(body: str, comments: str = ""):
    doc = Document(id="memo", uri="file:///memo.docx", name="memo.docx", mime_type=MIME, title="Memo")
    return load_bytes(docx(body, comments), doc)


def p(text: str = "", ppr: str = "", runs: str = "") -> str:
    """A paragraph: `text` as a plain run, then `runs` as written."""
    plain = f"<w:r><w:t xml:space='preserve'>{text}</w:t></w:r>" if text else ""
    return f"<w:p><w:pPr>{ppr}</w:pPr>{plain}{runs}</w:p>"


def ins(text: str, id: int = 1) -> str:
    return f"<w:ins {BY.format(id=id)}><w:r><w:t xml:space='preserve'>{text}</w:t></w:r></w:ins>"


def dele(text: str, id: int = 2) -> str:
    return f"<w:del {BY.format(id=id)}><w:r><w:delText xml:space='preserve'>{text}</w:delText></w:r></w:del>"


def mark_ins(id: int = 3) -> str:
    """An inserted paragraph mark (inside `w:pPr`)."""
    return f"<w:rPr><w:ins {BY.format(id=id)}/></w:rPr>"


def mark_del(id: int = 4) -> str:
    return f"<w:rPr><w:del {BY.format(id=id)}/></w:rPr>"


def num(ilvl: int = 0, num_id: int = 1) -> str:
    return f'<w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/></w:numPr>'


def style(sid: str) -> str:
    return f'<w:pStyle w:val="{sid}"/>'


def ppr_change(old: str, id: int = 5) -> str:
    """The paragraph's properties before a tracked change (`w:pPrChange`)."""
    return f"<w:pPrChange {BY.format(id=id)}><w:pPr>{old}</w:pPr></w:pPrChange>"
