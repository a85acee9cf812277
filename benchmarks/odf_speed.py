"""OpenDocument loading speed and text kept: ingest's .odt/.ods loader against odfpy, the library
users would pick in Python (docling, MarkItDown and unstructured read no ODF without pandoc or
LibreOffice, neither installed here).

    .venv/bin/python benchmarks/odf_speed.py                 # best of 3 passes
    .venv/bin/python benchmarks/odf_speed.py --sections 50   # a smaller generated document

Documents: the corpus's two .odt files, tests/fixtures/odf/*, and two generated in memory with
tests/fixtures/make_odf.py's helpers: an .odt of --sections sections (a heading, two paragraphs, a
three-item list, a 5x3 table each) and an .ods of --rows rows x 6 columns under a header, with the
million repeated empty rows a LibreOffice sheet ends with.
Contenders, each reading bytes already in memory:
- odfpy: `load()` then `teletype.extractText` of every text:h and text:p (a cell's paragraphs too):
  text only, no heading paths, lists or table rows.
- ingest: the loader (headings, lists, tables, merges, notes, changes as marks).
words: words of the output over odfpy's (the same text read: ~100%). s: best pass over all files.
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
from pathlib import Path

from shared_paths import CORPUS, ROOT

from ingest.blocks import Document
from ingest.loaders import ODS, ODT, load_bytes
from tests.fixtures.make_odf import ODS as ODS_TYPE
from tests.fixtures.make_odf import ODT as ODT_TYPE
from tests.fixtures.make_odf import cell, content, number, package


def generated_odt(sections: int) -> bytes:
    parts = []
    for i in range(sections):
        parts.append(f'<text:h text:outline-level="1">Section {i}</text:h>')
        parts += [f"<text:p>Paragraph {j} of section {i} says something about tea and coffee.</text:p>" for j in (1, 2)]
        items = "".join(f"<text:list-item><text:p>Item {k} of list {i}</text:p></text:list-item>" for k in range(3))
        parts.append(f"<text:list>{items}</text:list>")
        head, *body = (
            "<table:table-row>" + "".join(cell(f"r{r}c{c}") for c in range(3)) + "</table:table-row>" for r in range(5)
        )
        parts.append(
            f"<table:table><table:table-header-rows>{head}</table:table-header-rows>{''.join(body)}</table:table>"
        )
    return _packed(ODT_TYPE, content("".join(parts)))


def generated_ods(rows: int) -> bytes:
    head = (
        "<table:table-row>"
        + "".join(cell(h) for h in ("Id", "Name", "City", "Qty", "Price", "Note"))
        + "</table:table-row>"
    )
    body = "".join(
        f"<table:table-row>{number(str(i), str(i))}{cell(f'Name {i}')}{cell(('Lyon', 'Porto', 'Oslo')[i % 3])}"
        f"{number(str(i % 7), str(i % 7))}{number(f'{i * 1.25:.2f}', f'{i * 1.25:.2f}')}{cell('ok' if i % 5 else '')}"
        "</table:table-row>"
        for i in range(rows)
    )
    tail = '<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>'
    return _packed(
        ODS_TYPE, content(f'<table:table table:name="Data">{head}{body}{tail}</table:table>', kind="spreadsheet")
    )


def _packed(mime: str, xml: str) -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "doc"
        package(path, mime, xml)
        return path.read_bytes()


def odfpy_words(data: bytes) -> int:
    from odf import teletype, text
    from odf.opendocument import load

    doc = load(io.BytesIO(data))
    words = 0
    for kind in (text.H, text.P):
        for el in doc.getElementsByType(kind):
            words += len(teletype.extractText(el).split())
    return words


def ingest_words(data: bytes, mime: str) -> int:
    loaded = load_bytes(data, Document(id="d", uri="file:///d", name="d", mime_type=mime, title="d"))
    words = 0
    for b in loaded.blocks:
        if b.rows is not None:
            words += sum(len(c.split()) for row in b.rows for c in row)  # the cells, not the Markdown rendering
        else:
            words += len(b.text.split())
    return words


def best(repeat: int, fn, *args) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sections", type=int, default=500)
    parser.add_argument("--rows", type=int, default=20000)
    args = parser.parse_args()
    docs: list[tuple[str, bytes, str]] = []
    for path in sorted(CORPUS.rglob("*.od[ts]")) + sorted((ROOT / "tests/fixtures/odf").glob("*.od[ts]")):
        docs.append((path.name, path.read_bytes(), ODS if path.suffix == ".ods" else ODT))
    docs.append((f"generated {args.sections} sections.odt", generated_odt(args.sections), ODT))
    docs.append((f"generated {args.rows} rows.ods", generated_ods(args.rows), ODS))
    print(f"{'document':34} {'KB':>6} {'odfpy s':>8} {'ingest s':>9} {'ratio':>6} {'words ingest/odfpy':>19}")
    for name, data, mime in docs:
        t_peer = best(args.repeat, odfpy_words, data)
        t_ours = best(args.repeat, ingest_words, data, mime)
        ours, peer = ingest_words(data, mime), odfpy_words(data)
        share = f"{ours}/{peer}" if peer else f"{ours}/0"
        print(f"{name:34} {len(data) / 1024:6.0f} {t_peer:8.3f} {t_ours:9.3f} {t_peer / t_ours:5.1f}x {share:>19}")


if __name__ == "__main__":
    main()
