"""Text with marks over spans of it, trimmed without losing a mark: shared by Word and Google Docs."""

from __future__ import annotations

from collections.abc import Iterable

from ...blocks import Mark


def trim(text: str, marks: Iterable[Mark], lead: bool = True, trail: bool = True) -> tuple[str, list[Mark]]:
    """Strip whitespace at the ends of `text`, keeping every mark on the characters it covered."""
    start = len(text) - len(text.lstrip()) if lead else 0
    end = len(text.rstrip()) if trail else len(text)
    end = max(start, end)
    out = []
    for m in marks:
        s, e = min(max(m.start - start, 0), end - start), min(max(m.end - start, 0), end - start)
        if e > s or (m.start == m.end and m.kind == "comment"):
            out.append(Mark(m.kind, s, e, m.attrs))
    return text[start:end], out
