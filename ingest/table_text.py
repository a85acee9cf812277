"""The one pipe-table rendering every loader and cleaner uses, so a re-rendered table reads the same."""

from __future__ import annotations

import re
from collections.abc import Sequence

_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-{3,}")


def render_table(rows: Sequence[Sequence[str]], header_rows: int = 1) -> str:
    """Rows as a Markdown pipe table; a delimiter line follows the header rows (if any).

    An empty cell is two bare pipes (`||`, valid GFM): padded, it costs two tokens, and tables read
    from PDFs are mostly empty cells (spacer and currency columns), so padding took about a
    quarter of their tokens. A column empty in every row (a spacer) is left out: it holds nothing
    to read, and on a wide statement it cost a pipe a row and a delimiter cell in every piece.
    """
    text = [[_cell(c) for c in row] for row in rows]
    width = max((len(r) for r in text), default=0)
    shown = [j for j in range(width) if any(j < len(r) and r[j] for r in text)] or list(range(width))
    width = len(shown)
    lines = []
    for i, row in enumerate(text):
        cells = [row[j] if j < len(row) else "" for j in shown]
        lines.append("|" + "|".join(f" {c} " if c else "" for c in cells) + "|")
        if header_rows and i == header_rows - 1:
            lines.append("|" + "---|" * width)
    return "\n".join(lines)


def header_lines(lines: Sequence[str], header_rows: int) -> int:
    """How many leading lines of a rendered table are its header: the header rows plus the
    delimiter line under them, when there is one."""
    head = min(header_rows, len(lines))
    if head and head < len(lines) and _DELIMITER_ROW.match(lines[head]):
        head += 1
    return head


def _cell(value: str) -> str:
    # A cell is one line and a pipe inside it must not open a new column.
    return " ".join(str(value).split()).replace("|", "\\|")
