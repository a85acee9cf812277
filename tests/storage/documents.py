"""Real documents cut into real `Chunk`s by hand, one paragraph per chunk, for the storage tests.

The storage layer must not wait for the chunker, so these helpers split on headings and blank lines
only. The storage tests import them.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from ingest.blocks import Chunk, Citation, Document

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_WIKI_HEADING = re.compile(r"^ ((?:= )+)(.*?) (?:= )+$")


def make_chunk(doc: Document, index: int, text: str, path: tuple[str, ...], **extra) -> Chunk:
    digest = hashlib.sha256(f"{doc.id}\0{index}\0{text}".encode()).hexdigest()[:16]
    return Chunk(
        id=digest,
        doc_id=doc.id,
        chunk_index=index,
        text=text,
        heading_path=path,
        kinds=extra.pop("kinds", ("paragraph",)),
        token_count=len(text.split()),
        overlap_tokens=extra.pop("overlap_tokens", 0),
        source=Citation.of(doc),
        **extra,
    )


def markdown_document(path: Path, *, doc_id: str | None = None, version: str = "v1") -> tuple[Document, list[Chunk]]:
    """One chunk per paragraph, table or code fence, under its ATX heading path."""
    text = path.read_text(encoding="utf-8")
    doc = Document(
        id=doc_id or str(path),
        uri=path.as_uri(),
        name=path.name,
        mime_type="text/markdown",
        modified="2024-05-01T10:00:00Z",
        version=version,
        title=path.stem,
    )
    chunks: list[Chunk] = []
    heading: list[str] = []
    pieces = re.split(r"\n\s*\n(?=(?:[^`]*```[^`]*```)*[^`]*$)", text)  # blank lines outside fences
    offset = 0
    for piece in pieces:
        start = text.index(piece, offset)
        offset = start + len(piece)
        piece = piece.strip()
        if not piece:
            continue
        m = _MD_HEADING.match(piece)
        if m:
            level = len(m.group(1))
            heading = heading[: level - 1] + [m.group(2)]
            continue
        kind = "code" if piece.startswith("```") else "table" if piece.startswith("|") else "paragraph"
        chunks.append(
            make_chunk(doc, len(chunks), piece, tuple(heading), kinds=(kind,), start=start, end=start + len(piece))
        )
    return doc, chunks


def wiki_documents(path: Path) -> list[tuple[Document, list[Chunk]]]:
    """Each ` = Title = ` article of a WikiText file as a document, one chunk per paragraph line."""
    docs: list[tuple[Document, list[Chunk]]] = []
    heading: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _WIKI_HEADING.match(line)
        if m:
            level = m.group(1).count("=")
            title = m.group(2).strip()
            if level == 1:
                slug = re.sub(r"\W+", "-", title.lower()).strip("-")
                doc = Document(
                    id=f"wikitexts/{slug}",
                    uri=f"https://en.wikipedia.org/wiki/{title.replace(' ', '_')}",
                    name=title,
                    mime_type="text/plain",
                    version="1",
                    title=title,
                )
                docs.append((doc, []))
            heading = heading[: level - 1] + [title]
            continue
        if line.strip() and docs:
            doc, chunks = docs[-1]
            chunks.append(make_chunk(doc, len(chunks), line.strip(), tuple(heading)))
    return docs


def articles_index(path: Path, articles: list[tuple[Document, list[Chunk]]], seeds: Path) -> Path:
    """A SQLite index at `path` of the wiki articles and the seed fever guideline (a real Markdown
    document among them), as the search tests rank it."""
    from ingest.sinks import SqliteSink

    with SqliteSink(path) as sink:
        for doc, chunks in articles:
            sink.write(doc, chunks)
        sink.write(*markdown_document(seeds / "paediatric-fever.md", doc_id="seeds/paediatric-fever.md"))
    return path
