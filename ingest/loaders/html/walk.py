"""The DOM walk: an HTML tree to outline `Item`s (word/outline.py places them under headings).

Block elements open items; runs of inline content between them (text loose in a `div`) become
paragraphs. What a page says is not its content is kept apart: `script`, `style`, form controls
and hidden elements (`hidden`, `aria-hidden="true"`, an inline `display: none`) are dropped; `nav`,
`aside`, a page-level `header` or `footer` (one not inside an article or section, as HTML's
landmark rules read it) and ARIA landmarks of the same roles go in the furniture layer; and when
the page names its content (`main`, `role="main"`, or a lone `article`), what lies outside it is
furniture too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from lxml import etree

from ...blocks import BlockMeta, Layer
from ..word.outline import Item
from .tables import cells_of, read_table, rows_of

HEADINGS = {f"h{n}": n for n in range(1, 7)}
BLOCK_TAGS = frozenset(
    {*HEADINGS, "address", "article", "aside", "blockquote", "body", "center", "dd", "details", "dialog", "div",
     "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "header", "hgroup", "hr", "html", "legend",
     "li", "main", "menu", "nav", "ol", "p", "pre", "section", "summary", "table", "caption", "tbody", "thead",
     "tfoot", "tr", "td", "th", "ul"}
)  # fmt: skip
DROPPED = frozenset(
    {"script", "style", "template", "noscript", "head", "title", "meta", "link", "base", "iframe", "object",
     "embed", "canvas", "svg", "button", "select", "option", "input", "textarea", "map", "area", "audio",
     "video", "source", "track", "img", "picture", "dialog"}
)  # fmt: skip
FURNITURE_TAGS = frozenset({"nav", "aside"})
FURNITURE_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search"})
SECTIONING = frozenset({"article", "section", "main", "aside", "nav"})
"""A `header` or `footer` inside one of these belongs to it (an article's byline), not to the page."""
STRUCTURES = frozenset({"ul", "ol", "menu", "dl", "table", "pre", "blockquote"})
"""What a list item holds as blocks of its own rather than as part of its text."""
MAX_DEPTH = 200
"""Containers nested deeper than this are read as one paragraph of text (the walk recurses)."""
BR = "\x1e"
"""Stands for a `<br>` while whitespace is collapsed; a line break in the text."""

Classify = Callable[[etree._Element], BlockMeta | None]
"""Facts an embedding format reads off an element (a mail's quoted reply), inherited by its blocks."""


@dataclass(frozen=True, slots=True)
class Context:
    layer: Layer = "body"
    quote: bool = False
    depth: int = 0
    """Nesting of lists, for a list item's level."""
    nesting: int = 0
    """How deep the walk is, against `MAX_DEPTH`."""
    meta: BlockMeta | None = None


def hidden(el: etree._Element) -> bool:
    if el.get("hidden") is not None or (el.get("aria-hidden") or "").strip().lower() == "true":
        return True
    for decl in (el.get("style") or "").split(";"):
        prop, _, value = decl.partition(":")
        prop, value = prop.strip().lower(), value.strip().lower()
        if (prop == "display" and value.startswith("none")) or (prop == "visibility" and value == "hidden"):
            return True
    return False


def skipped(el: etree._Element) -> bool:
    return not isinstance(el.tag, str) or el.tag in DROPPED or hidden(el)


def text_of(el: etree._Element, stop: frozenset[str] = frozenset()) -> str:
    """The element's visible text: whitespace collapsed, `<br>` a line break, blocks apart; the
    subtrees of `stop` tags left out."""
    return collapse(raw_text(el, stop))


def raw_text(el: etree._Element, stop: frozenset[str] = frozenset()) -> str:
    """`text_of` before whitespace is collapsed, so that runs of inline elements collapse together
    ("Click<a> here</a>" keeps its space). The parser removes comments: `iterwalk` skips them."""
    parts: list[str] = [el.text or ""]
    walk = etree.iterwalk(el, events=("start", "end"))
    for event, node in walk:
        if node is el:
            continue
        out = skipped(node) or node.tag in stop
        if event == "start":
            if out:
                walk.skip_subtree()
            elif node.tag == "br":
                parts.append(BR)
            else:
                parts.append(_edge(node.tag) + (node.text or ""))
        else:
            parts.append(("" if out else _edge(node.tag)) + (node.tail or ""))
    return "".join(parts)


def _edge(tag: str) -> str:
    """What stands at a block's edge inside running text: a line break after a paragraph-like one."""
    if tag in ("p", "div", "li", "tr", *HEADINGS):
        return BR
    return " " if tag in BLOCK_TAGS else ""


def collapse(text: str) -> str:
    lines = (" ".join(line.split()) for line in text.split(BR))
    return "\n".join(line for line in lines if line)


def paragraphs(text: str) -> list[str]:
    """Raw inline text split where a blank line stands (`<br><br>`: pages set out without `<p>`)."""
    out: list[list[str]] = [[]]
    for line in text.split(BR):
        line = " ".join(line.split())
        if line:
            out[-1].append(line)
        elif out[-1]:
            out.append([])
    return ["\n".join(lines) for lines in out if lines]


def cell_text(el: etree._Element) -> str:
    return " ".join(text_of(el).split("\n"))


class Walker:
    """Reads one page's tree into items, in document order."""

    def __init__(self, root: etree._Element, classify: Classify | None = None) -> None:
        self.items: list[Item] = []
        self.classify = classify
        self.containers = _containers(root)
        self.content = _content(root)

    def read(self, root: etree._Element) -> list[Item]:
        body = root.find("body")
        start = body if body is not None else root
        self.container(start, Context(layer="furniture" if self.content is not None else "body"))
        return self.items

    # -- dispatch ------------------------------------------------------------------------------

    def enter(self, el: etree._Element, ctx: Context) -> Context:
        """The context inside `el`: its layer, quoting and the embedding format's facts."""
        layer = ctx.layer
        role = (el.get("role") or "").strip().lower()
        if el is self.content:
            layer = "body"
        if el.tag in FURNITURE_TAGS or role in FURNITURE_ROLES or (el.tag in ("header", "footer") and _page_level(el)):
            layer = "furniture"
        meta = ctx.meta
        if self.classify is not None:
            found = self.classify(el)
            if found:
                meta = BlockMeta(**{**(meta or {}), **found})
        return replace(ctx, layer=layer, meta=meta, nesting=ctx.nesting + 1)

    def block(self, el: etree._Element, ctx: Context) -> None:
        ctx = self.enter(el, ctx)
        tag = el.tag
        if ctx.nesting > MAX_DEPTH:
            self.emit("paragraph", text_of(el), ctx)
        elif tag in HEADINGS:
            self.heading(el, HEADINGS[tag], ctx)
        elif tag in ("ul", "ol", "menu"):
            self.list(el, ctx)
        elif tag == "dl":
            self.definitions(el, ctx)
        elif tag == "pre":
            self.code(el, ctx)
        elif tag == "blockquote":
            self.container(el, replace(ctx, quote=True))
        elif tag == "table":
            self.table(el, ctx)
        elif tag in ("figcaption", "caption"):
            self.emit("caption", text_of(el), ctx)
        elif tag != "hr":
            self.container(el, ctx)

    def container(self, el: etree._Element, ctx: Context) -> None:
        """Block children in turn; inline content between them as a paragraph."""
        run: list[str] = [el.text or ""]
        for child in el:
            if skipped(child):
                pass
            elif child.tag in BLOCK_TAGS or child in self.containers:
                self.run(run, ctx)
                run = []
                self.block(child, ctx)
            elif child.tag == "br":
                run.append(BR)
            else:
                run.append(raw_text(child))
            run.append(child.tail or "")
        self.run(run, ctx)

    def run(self, run: list[str], ctx: Context) -> None:
        for text in paragraphs("".join(run)):
            self.emit("paragraph", text, ctx)

    # -- blocks --------------------------------------------------------------------------------

    def emit(self, kind: str, text: str, ctx: Context, **fields) -> None:
        if not text and kind != "table":
            return
        if ctx.quote and kind == "paragraph":
            kind = "quote"
        meta = {**(ctx.meta or {}), **fields.pop("meta", {})}
        self.items.append(Item(kind, text, meta=meta, layer=ctx.layer, **fields))  # type: ignore[arg-type]

    def heading(self, el: etree._Element, level: int, ctx: Context) -> None:
        text = " ".join(text_of(el).split())
        if ctx.layer == "furniture" or ctx.quote or ctx.meta:
            self.emit("paragraph", text, ctx)  # a heading in chrome or a quote opens no section
        elif text:
            self.emit("heading", text, ctx, rank=level, level=level)

    def list(self, el: etree._Element, ctx: Context) -> None:
        depth = max(ctx.depth, _docs_list_level(el))
        ordered = el.tag == "ol"
        number = _int(el.get("start"), 1)
        for child in el:
            if skipped(child):
                continue
            if child.tag in ("ul", "ol", "menu"):  # a list straight inside a list: one level down
                self.block(child, replace(ctx, depth=depth + 1))
                continue
            if child.tag != "li":
                self.block(child, replace(ctx, depth=depth))
                continue
            number = _int(child.get("value"), number)
            item_ctx = self.enter(child, ctx)
            marker = f"{number}." if ordered else "-"
            text = _item_text(child)
            self.emit("list_item", text, item_ctx, level=depth, meta={"marker": marker})
            # An item holding only a list (a wrapper, often unbulleted) takes no level of its own.
            inner_depth = depth + 1 if text else depth
            for inner in _structures(child):
                self.block(inner, replace(item_ctx, depth=inner_depth))
            number += 1

    def definitions(self, el: etree._Element, ctx: Context) -> None:
        terms: list[str] = []
        for node in _definition_parts(el):
            if node.tag == "dt":
                terms.append(text_of(node))
                continue
            term = "; ".join(t for t in terms if t)
            if any(True for _ in _structures(node)):
                self.emit("paragraph", term, ctx)
                self.container(node, self.enter(node, ctx))
            else:
                definition = text_of(node)
                self.emit("paragraph", f"{term}: {definition}" if term and definition else term or definition, ctx)
            terms = []
        if terms:
            self.emit("paragraph", "; ".join(terms), ctx)

    def code(self, el: etree._Element, ctx: Context) -> None:
        text = "".join(_visible_text(el))
        text = text[1:] if text.startswith("\n") else text  # HTML drops a newline right after <pre>
        inner = el.find("code")
        lang = _language(el) or (_language(inner) if inner is not None else "")
        if text.strip():
            self.emit("code", text.rstrip(), ctx, lang=lang)

    def table(self, el: etree._Element, ctx: Context) -> None:
        if _layout(el):
            self.container(el, ctx)
            return
        caption = el.find("caption")
        if caption is not None and not skipped(caption):
            self.emit("caption", text_of(caption), ctx)
        table = read_table(el, cell_text, skipped)
        if table is not None:
            self.emit("table", "", ctx, table=table)


def _page_level(el: etree._Element) -> bool:
    return not any(a.tag in SECTIONING for a in el.iterancestors())


def _containers(root: etree._Element) -> set[etree._Element]:
    """Inline elements holding a block (a link around a div): walked as containers, not as text."""
    out: set[etree._Element] = set()
    for el in root.iter(*BLOCK_TAGS):
        for ancestor in el.iterancestors():
            if ancestor in out:
                break
            out.add(ancestor)
    return out


def _content(root: etree._Element) -> etree._Element | None:
    """The element the page names as its content: `main` (or role="main"), else its only article."""
    for el in root.iter():
        if isinstance(el.tag, str) and (el.tag == "main" or (el.get("role") or "").strip().lower() == "main"):
            if not hidden(el):
                return el
    articles = [a for a in root.iter("article") if not any(p.tag == "article" for p in a.iterancestors())]
    return articles[0] if len(articles) == 1 else None


def _item_text(li: etree._Element) -> str:
    """A list item's own text: what it holds outside its nested lists, tables, code and quotes."""
    return " ".join(text_of(li, STRUCTURES).split("\n"))


def _structures(el: etree._Element) -> Iterator[etree._Element]:
    """The outermost lists, tables, code and quotes under `el`, in order."""
    for child in el:
        if skipped(child):
            continue
        if child.tag in STRUCTURES:
            yield child
        else:
            yield from _structures(child)


def _definition_parts(dl: etree._Element) -> Iterator[etree._Element]:
    for child in dl:
        if skipped(child):
            continue
        if child.tag in ("dt", "dd"):
            yield child
        elif child.tag == "div":  # HTML allows dt/dd groups wrapped in a div
            yield from _definition_parts(child)


def _visible_text(el: etree._Element) -> Iterator[str]:
    yield el.text or ""
    for child in el:
        if not skipped(child):
            yield "\n" if child.tag == "br" else ""
            yield from _visible_text(child)
        yield child.tail or ""


def _language(el: etree._Element) -> str:
    for name in (el.get("class") or "").split():
        for prefix in ("language-", "lang-"):
            if name.startswith(prefix) and len(name) > len(prefix):
                return name[len(prefix) :]
    return (el.get("data-lang") or "").strip()


def _docs_list_level(el: etree._Element) -> int:
    """Google Docs exports every list flat, its level in the class (`lst-kix_<id>-<level>`)."""
    for name in (el.get("class") or "").split():
        if name.startswith("lst-kix_"):
            level = name.rsplit("-", 1)[-1]
            if level.isdigit():
                return int(level)
    return 0


def _layout(table: etree._Element) -> bool:
    """A table used to lay a page out, not to hold data: its role says so, it is one cell, or it
    holds a table or a heading without declaring a header or caption of its own."""
    if (table.get("role") or "").strip().lower() in ("presentation", "none"):
        return True
    declared = any(True for row, in_head in rows_of(table) for c in cells_of(row) if in_head or c.tag == "th")
    if not declared and table.find("caption") is None and any(True for _ in table.iterdescendants("table", *HEADINGS)):
        return True
    cells = [c for row, _ in rows_of(table) for c in cells_of(row)]
    return len(cells) <= 1


def _int(value: str | None, default: int) -> int:
    value = (value or "").strip()
    return int(value) if value.lstrip("-").isdigit() else default
