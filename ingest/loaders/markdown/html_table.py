"""Rows out of an HTML <table> embedded in Markdown, with the stdlib's tolerant HTML parser."""

from __future__ import annotations

from html.parser import HTMLParser


class _TableParser(HTMLParser):
    """Collects the first table's cells; colspan repeats nothing (covered cells stay empty)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self.header_flags: list[bool] = []
        self._cell: list[str] | None = None
        self._row_is_header = True
        self._depth = 0
        self._span = 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._depth += 1
        elif self._depth != 1:
            return
        elif tag == "tr":
            self.rows.append([])
            self._row_is_header = True
        elif tag in ("td", "th"):
            self._cell = []
            self._row_is_header &= tag == "th"
            span = dict(attrs).get("colspan") or "1"
            self._span = int(span) if span.isdigit() else 1
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._depth -= 1
        elif self._depth != 1:
            return
        elif tag in ("td", "th") and self._cell is not None:
            self._end_cell()
        elif tag == "tr" and self.rows:
            if self._cell is not None:
                self._end_cell()
            self.header_flags.append(self._row_is_header and bool(self.rows[-1]))

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def _end_cell(self) -> None:
        if not self.rows:
            self.rows.append([])
        self.rows[-1].append(" ".join("".join(self._cell or []).split()))
        self.rows[-1].extend([""] * (self._span - 1))
        self._cell = None


def parse_html_table(html: str) -> tuple[tuple[tuple[str, ...], ...], int] | None:
    """(rows, header row count) of the first table in `html`, or None if it has no rows."""
    parser = _TableParser()
    parser.feed(html)
    parser.close()
    rows = tuple(tuple(r) for r in parser.rows if r)
    if not rows:
        return None
    header_rows = 0
    for flag in parser.header_flags:
        if not flag:
            break
        header_rows += 1
    return rows, min(header_rows, len(rows))
