"""`ingest inspect --html`: one self-contained page (inline CSS, no script, nothing fetched) with
the loaded text, every removal highlighted in its cleaner's colour, a legend with per-cleaner
counts, the final chunks with their heading paths and token counts, and the loader's warnings."""

from __future__ import annotations

from html import escape

from .blocks import is_card, is_figure
from .inspect import Inspection, TracedBlock, chunk_starts, segments

# Distinct on white, and readable as a background under dark text.
PALETTE = (
    "#f4a3a3",
    "#9fd3f5",
    "#b9e59a",
    "#f7d67a",
    "#d3b3f2",
    "#f5b98a",
    "#8fe3d0",
    "#f2a7d8",
    "#c8c8c8",
    "#e6e28c",
    "#a9b8f5",
    "#e3b7a0",
)

_CSS = """
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
header{padding:16px 24px;background:#fff;border-bottom:1px solid #ddd}
h1{font-size:20px;margin:0 0 4px} h2{font-size:17px;margin:24px 0 8px}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:24px;padding:0 24px 24px}
.legend{display:flex;flex-wrap:wrap;gap:8px;margin-top:8px}
.legend span{padding:2px 8px;border-radius:4px;font-size:13px}
table.counts{border-collapse:collapse;font-size:13px;margin-top:8px}
table.counts td,table.counts th{border:1px solid #ddd;padding:2px 8px;text-align:right}
table.counts td:first-child,table.counts th:first-child{text-align:left}
.block{background:#fff;border:1px solid #e4e4e4;border-radius:4px;padding:6px 10px;margin:6px 0;white-space:pre-wrap}
.block.removed{opacity:.8}
.meta{display:block;font-size:11px;color:#777;white-space:normal}
del{text-decoration:line-through;border-radius:2px;padding:0 1px}
.tag{font-size:11px;border-radius:3px;padding:0 4px;margin-left:6px;white-space:nowrap}
.chunk{background:#fff;border:2px solid #6a8;border-radius:4px;margin:10px 0;padding:0 10px 8px}
.chunk .head{font-size:12px;color:#264;background:#e6f2ea;margin:0 -10px 6px;padding:3px 10px}
.chunk pre{white-space:pre-wrap;font:inherit;margin:0}
.warnings li{color:#8a4b00}
.boundary{border-top:2px dashed #6a8;color:#264;font-size:12px;margin:14px 0 4px;padding-top:2px}
"""


def colours(inspection: Inspection) -> dict[str, str]:
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(inspection.cleaners)}


def render(inspection: Inspection) -> str:
    doc = inspection.loaded.document
    colour = colours(inspection)
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        # No request may leave the page: a strict policy, and nothing external referenced anyway.
        "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        f"<title>ingest inspect: {escape(doc.name)}</title><style>{_CSS}</style></head><body>",
        f"<header><h1>{escape(doc.name)}</h1><div>{escape(doc.mime_type)} · {len(inspection.blocks)} blocks loaded · "
        f"{len(inspection.chunks)} chunks</div>",
        _legend(inspection, colour),
        _counts(inspection),
        "</header>",
    ]
    if inspection.loaded.warnings:
        parts.append("<section class='warnings' style='padding:0 24px'><h2>Loader warnings</h2><ul>")
        parts += [f"<li>{escape(w)}</li>" for w in inspection.loaded.warnings]
        parts.append("</ul></section>")
    parts.append("<main><section id='document'><h2>The document after loading, with what cleaning removed</h2>")
    starts = chunk_starts(inspection)
    for traced in inspection.blocks:
        for c in starts.get(traced.index, ()):  # a chunk boundary, where the chunk's text begins
            parts.append(
                f"<div class='boundary' data-chunk='{c.chunk_index}'>chunk {c.chunk_index} · "
                f"{escape(' > '.join(c.heading_path))} · {c.token_count} tokens</div>"
            )
        parts.append(_block(traced, colour))
    parts.append("</section><section id='chunks'><h2>The chunks</h2>")
    for c in inspection.chunks:
        pages = (
            f" · p. {c.page_start}" + (f"-{c.page_end}" if c.page_end != c.page_start else "") if c.page_start else ""
        )
        parts.append(
            f"<div class='chunk' data-chunk='{c.chunk_index}'><div class='head'>"
            f"{'card' if is_card(c) else 'figure' if is_figure(c) else 'chunk'} {c.chunk_index} · "
            f"{escape(' > '.join(c.heading_path))} · {c.token_count} tokens{pages}</div><pre>{escape(c.text)}</pre></div>"
        )
    parts.append("</section></main></body></html>")
    return "".join(parts)


def _legend(inspection: Inspection, colour: dict[str, str]) -> str:
    spans = [
        f"<span data-cleaner='{escape(n)}' style='background:{colour[n]}'>{escape(n)}</span>"
        for n in inspection.cleaners
    ]
    return "<div class='legend'>" + "".join(spans) + "</div>"


def _counts(inspection: Inspection) -> str:
    rows = [
        "<table class='counts'><tr><th>cleaner</th><th>blocks removed</th><th>blocks changed</th>"
        "<th>characters removed</th></tr>"
    ]
    for name in inspection.cleaners:
        c = inspection.counts[name]
        rows.append(
            f"<tr data-cleaner='{escape(name)}'><td>{escape(name)}</td><td>{c['blocks_removed']}</td>"
            f"<td>{c['blocks_changed']}</td><td>{c['chars_removed']}</td></tr>"
        )
    return "".join(rows) + "</table>"


def _block(traced: TracedBlock, colour: dict[str, str]) -> str:
    b = traced.block
    where = [b.kind if b.layer == "body" else f"{b.kind} ({b.layer})"]
    if b.page is not None:
        where.append(f"page {b.page}")
    if b.bbox is not None:
        where.append(f"at x {b.bbox[0]:.0f}, y {b.bbox[1]:.0f}")
    if b.path:
        where.append(" > ".join(b.path))
    text = []
    for run, cleaner in segments(traced):
        if cleaner:
            text.append(
                f"<del class='removal' data-cleaner='{escape(cleaner)}' title='removed by {escape(cleaner)}' "
                f"style='background:{colour.get(cleaner, '#ccc')}'>{escape(run)}</del>"
            )
        else:
            text.append(escape(run))
    tags = []
    if traced.removed_by:
        tags.append(traced.removed_by)
    tags += [r.cleaner for r in traced.removals if r.cleaner not in tags]
    chips = "".join(f"<span class='tag' style='background:{colour.get(t, '#ccc')}'>{escape(t)}</span>" for t in tags)
    cls = "block removed" if traced.removed_by else "block"
    return (
        f"<div class='{cls}' data-index='{traced.index}'><span class='meta'>{escape(' · '.join(where))}{chips}</span>"
        f"{''.join(text)}</div>"
    )
