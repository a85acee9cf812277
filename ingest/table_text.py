"""The one pipe-table rendering every loader and cleaner uses, so a re-rendered table reads the same."""

from __future__ import annotations

import re
from typing import Sequence

_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-{3,}")


def render_table(rows: Sequence[Sequence[str]], header_rows: int = 1) -> str:
    """Rows as a Markdown pipe table; a delimiter line follows the header rows (if any).

    An empty cell is two bare pipes (`||`, valid GFM): padded, it costs two tokens, and tables read
    from PDFs are mostly empty cells (spacer and currency columns), so padding took about a
    quarter of their tokens.
    """
    width = max((len(r) for r in rows), default=0)
    lines = []
    for i, row in enumerate(rows):
        cells = [_cell(c) for c in row] + [""] * (width - len(row))
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
