"""Footnotes and endnotes: no document in the shared corpus has one, so this test adds them to a
real Word file (python-docx's own sample) the way Word stores them, and reads it back."""

from __future__ import annotations

import io
import re
import zipfile

from ingest import chunk, clean_blocks, load_bytes
from ingest.loaders import local_document
from tests.paths import CORPUS

W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
NOTES = {
    "footnotes": ("footnote", "The 2019 survey, table 4."),
    "endnotes": ("endnote", "Figures rounded to the nearest thousand."),
}


def with_notes(source: bytes) -> bytes:
    """Add one footnote and one endnote, referenced from the first body paragraph with text."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(source)) as zin, zipfile.ZipFile(out, "w") as zout:
        names = set(zin.namelist())
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "word/document.xml":
                refs = '<w:r><w:footnoteReference w:id="7"/></w:r><w:r><w:endnoteReference w:id="7"/></w:r>'
                data = re.sub(
                    rb"(<w:t[^>]*>[^<]+</w:t></w:r>)", lambda m, refs=refs: m.group(1) + refs.encode(), data, count=1
                )
            for part, (tag, text) in NOTES.items():
                note = f'<w:{tag} w:id="7"><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:{tag}>'
                if item.filename == f"word/{part}.xml":  # Word's separator notes stay
                    data = data.replace(f"</w:{part}>".encode(), note.encode() + f"</w:{part}>".encode())
                elif f"word/{part}.xml" not in names and item.filename == "word/_rels/document.xml.rels":
                    rel = f'<Relationship Id="rIdNote{part}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{part}" Target="{part}.xml"/>'
                    data = data.replace(b"</Relationships>", rel.encode() + b"</Relationships>")
                elif f"word/{part}.xml" not in names and item.filename == "[Content_Types].xml":
                    ctype = f'<Override PartName="/word/{part}.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.{part}+xml"/>'
                    data = data.replace(b"</Types>", ctype.encode() + b"</Types>")
            zout.writestr(item, data)
        for part, (tag, text) in NOTES.items():
            if f"word/{part}.xml" not in names:
                zout.writestr(
                    f"word/{part}.xml",
                    f'<w:{part} {W}><w:{tag} w:id="7"><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:{tag}></w:{part}>',
                )
    return out.getvalue()


def test_footnote_and_endnote_text_reach_the_chunks_with_a_reference_mark(tmp_path):
    path = tmp_path / "notes.docx"
    path.write_bytes(with_notes((CORPUS / "python_docx" / "blk-paras-and-tables.docx").read_bytes()))
    loaded = load_bytes(path.read_bytes(), local_document(path, path.read_bytes(), 0.0))
    notes = [b for b in loaded.blocks if b.kind == "footnote"]
    assert sorted(n.text for n in notes) == sorted(text for _, text in NOTES.values())
    refs = [m for b in loaded.blocks for m in b.marks if m.kind == "footnote_ref"]
    assert {m.attrs["note"] for m in refs} == {"footnote", "endnote"}
    text = "\n".join(c.text for c in chunk(loaded, blocks=clean_blocks(loaded)))
    for _, note in NOTES.values():
        assert note in text
